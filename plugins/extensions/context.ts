/**
 * `ctx` for extension handlers, tools and commands: made per call, with live getters (the model,
 * the run's signal) and a UI whose dialogs are dismissed if this call is released by an abort.
 * Command handlers also get the session controls, carried out by the session commands themselves.
 */
import { toolJsonSchema, type ToolExecutionContext } from "../../kernel/index.js";
import type {} from "../compaction/api.js";
import { estimateContextTokens } from "../session/api.js";
import type { ExtensionHost } from "./host.js";
import type { ExtensionRecord } from "./record.js";
import { systemPromptOptions } from "./prompt-options.js";
import type { CompactOptions, ContextUsage, ExtensionCommandContext, ExtensionContext, ExtensionToolContext, ReplacedSessionOptions } from "./types/context.js";
import { createUiContext } from "./ui-context.js";

export interface CallOptions {
  /** Aborted when the call is released by an abort: its dialogs are dismissed. */
  dismiss?: AbortSignal;
  /** The system prompt as chained so far (before_agent_start). */
  systemPrompt?: () => string;
}

export function createContext(host: ExtensionHost, options: CallOptions = {}): ExtensionContext {
  const { k } = host;
  return {
    ui: createUiContext(host.bridge, options.dismiss, host.uiPrompts),
    hasUI: host.bridge !== undefined,
    mode: host.mode,
    cwd: k.config.cwd,
    sessionManager: host.sessionManager,
    modelRegistry: host.modelRegistry,
    get model() {
      return host.agent.getModel() ?? undefined;
    },
    get thinkingLevel() {
      return host.agent.getThinkingLevel();
    },
    get scopedModels() {
      return host.models.scope().map((entry) => ({ ...entry }));
    },
    get signal() {
      return host.agent.runSignal();
    },
    isIdle: () => !host.agent.isStreaming(),
    abort: () => void host.agent.abort(),
    hasPendingMessages: () => host.agent.pendingMessageCount() > 0,
    // Deferred until the agent is idle (pi): a tool may end the process once its run is over.
    shutdown: () => void host.agent.waitForIdle().then(() => k.requestShutdown()),
    getContextUsage: () => contextUsage(host),
    compact: (compactOptions) => compact(host, compactOptions),
    getSystemPrompt: () => options.systemPrompt?.() ?? host.systemPrompt,
    isProjectTrusted: () => k.config.trusted,
  };
}

/**
 * A tool's `ctx`: pi 1.x adds `tools` (what it may call) and `executeTool` (a nested call through
 * validation, the tool_call / tool_result handlers and the tool_execution_* events, as the agent
 * loop runs the model's own calls). Outside the agent loop there is nothing to run it through, so
 * a nested call answers with an error result instead of running unguarded.
 */
export function createToolContext(host: ExtensionHost, options: CallOptions = {}, call?: Pick<ToolExecutionContext, "executeTool">): ExtensionToolContext {
  const tools = host.k.tools;
  const nested = call?.executeTool;
  return Object.defineProperties(createContext(host, options), {
    tools: {
      enumerable: true,
      configurable: true,
      get: () =>
        nested
          ? tools
              .names()
              .filter((name) => tools.isCallable(name))
              .map((name) => ({ name, description: tools.get(name)!.description, parameters: toolJsonSchema(tools.get(name)!) }))
          : [],
    },
    executeTool: {
      enumerable: true,
      configurable: true,
      writable: true,
      value: async (name: string, args: unknown, given: { signal?: AbortSignal } = {}) => {
        if (!nested) {
          return {
            toolCall: { id: "", name: String(name), arguments: args },
            result: { content: [{ type: "text" as const, text: `ctx.executeTool("${String(name)}") is only available while the agent loop runs the tool` }] },
            isError: true,
          };
        }
        const outcome = await nested(String(name), args, given.signal ? { signal: given.signal } : {});
        return { toolCall: { id: outcome.toolCallId, name: String(name), arguments: args }, result: outcome.result, isError: outcome.isError };
      },
    },
  }) as ExtensionToolContext;
}

export function createCommandContext(host: ExtensionHost, record: ExtensionRecord, options: CallOptions = {}): ExtensionCommandContext {
  const base = createContext(host, options);
  // Session commands may abort the run: that abort must not release this very handler.
  const replace = async (command: string, input: Record<string, unknown>, after?: ReplacedSessionOptions["withSession"]) => {
    const result = (await host.gate.hold(() => host.k.commands.invoke(command, input, { source: "extension", seq: 0 }))) as { cancelled?: boolean };
    const cancelled = result?.cancelled === true;
    if (!cancelled && after) await after(createCommandContext(host, record, options));
    return { cancelled };
  };
  const unsupported = (what: string) => Promise.reject(new Error(`${what} is not available in Atomic`));
  return Object.defineProperties(
    base,
    Object.getOwnPropertyDescriptors({
      getSystemPromptOptions: () => systemPromptOptions(host),
      waitForIdle: () => host.agent.waitForIdle(),
      newSession: (opts: Parameters<ExtensionCommandContext["newSession"]>[0] = {}) => {
        if (opts.setup !== undefined) return unsupported("newSession({ setup }) (preparing the new session before it starts)");
        return replace("new_session", opts.parentSession !== undefined ? { parentSession: opts.parentSession } : {}, opts.withSession);
      },
      fork: (entryId: string, opts: Parameters<ExtensionCommandContext["fork"]>[1] = {}) => {
        if ((opts.position ?? "before") === "before") return replace("fork", { entryId }, opts.withSession);
        // "at" keeps the entry itself: Atomic's clone does that at the leaf.
        if (entryId !== host.session?.leafId()) return unsupported(`fork(entryId, { position: "at" }) for an entry other than the leaf`);
        return replace("clone", {}, opts.withSession);
      },
      switchSession: (sessionPath: string, opts: ReplacedSessionOptions = {}) => replace("switch_session", { sessionPath }, opts.withSession),
      navigateTree: () => unsupported("navigateTree (session tree navigation)"),
      reload: () => unsupported("reload (restart the process to reload extensions)"),
    }),
  ) as ExtensionCommandContext;
}

function contextUsage(host: ExtensionHost): ContextUsage | undefined {
  const model = host.agent.getModel();
  if (!model) return undefined;
  const tokens = estimateContextTokens(host.agent.getMessages());
  return { tokens, contextWindow: model.contextWindow, percent: tokens === null ? null : (tokens / model.contextWindow) * 100 };
}

/** Compaction belongs to the compaction plugin; without one, onError says so. Not awaited (pi). */
function compact(host: ExtensionHost, options: CompactOptions = {}): void {
  const fail = (error: unknown) => options.onError?.(error instanceof Error ? error : new Error(String(error)));
  const compaction = host.k.maybeService("compaction");
  if (!compaction) {
    queueMicrotask(() => fail(new Error("Compaction is not available: the compaction plugin is not loaded")));
    return;
  }
  compaction.compact(options.customInstructions ? { customInstructions: options.customInstructions } : {}).then((result) => options.onComplete?.(result), fail);
}
