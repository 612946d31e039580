/**
 * The hook catalogue: every point where plugins (and, through the extensions plugin, user
 * extensions) meet. One frozen object per kernel; the hook kind follows its meaning:
 * guard = first answer wins (bail), transform = waterfall, notify = series, internal = owner only.
 * Names are the extension event names (snake_case), so `pi.on("tool_call")` maps to `hooks.tool_call`.
 */
import { AsyncSeriesBailHook, AsyncSeriesHook, AsyncSeriesWaterfallHook, HookMap, SyncBailHook } from "tapable";
import type {
  AgentMessage,
  AssistantMessage,
  AssistantMessageEvent,
  AssistantStream,
  ImageContent,
  Model,
  StreamRequest,
  TextContent,
  ThinkingLevel,
  ToolResultMessage,
  ToolSpec,
} from "./types.js";

export type SessionStartReason = "startup" | "new" | "resume" | "fork";
export type StreamingBehavior = "steer" | "followUp";

export interface InputEvent {
  text: string;
  images?: ImageContent[];
  source: "rpc" | "extension" | "cli";
  streamingBehavior?: StreamingBehavior;
  /** Set by a tap that fully handled the input: no run starts. */
  handled?: boolean;
}

export interface ToolCallEvent {
  toolCallId: string;
  toolName: string;
  /** Mutable: a tap may rewrite arguments in place. */
  input: Record<string, unknown>;
}

export interface ToolCallVeto {
  block: true;
  reason?: string;
}

export interface ToolResultEvent {
  toolCallId: string;
  toolName: string;
  input: Record<string, unknown>;
  content: (TextContent | ImageContent)[];
  details?: unknown;
  isError: boolean;
}

export interface CancelVeto {
  cancel: true;
}

export interface CompactVerdict {
  cancel?: boolean;
  compactedText?: string;
}

export interface SystemPromptContext {
  cwd: string;
  tools: ToolSpec[];
  model: Model | null;
}

/** Asked after a run ends: may ask the agent to continue (retry, compaction). */
export interface RunEndEvent {
  messages: AgentMessage[];
  lastAssistant: AssistantMessage | undefined;
  signal: AbortSignal;
}

export interface UiResponse {
  id: string;
  value?: unknown;
  confirmed?: boolean;
  cancelled?: boolean;
}

export interface PluginErrorEvent {
  /** Tap name: a plugin name or an extension path. */
  source: string;
  hook: string;
  error: string;
}

/** Builds a fresh catalogue. Kept as one expression so the generics are the only types. */
function buildHooks() {
  return {
    // ---- lifecycle (internal)
    boot: new AsyncSeriesHook<[]>([], "boot"),
    shutdown: new AsyncSeriesHook<[{ reason: "eof" | "signal" | "exit" }]>(["event"], "shutdown"),
    plugin_error: new AsyncSeriesHook<[PluginErrorEvent]>(["event"], "plugin_error"),
    /** A client's reply to an extension_ui_request, delivered by the transport. */
    ui_response: new AsyncSeriesHook<[UiResponse]>(["reply"], "ui_response"),

    // ---- session
    session_start: new AsyncSeriesHook<[{ reason: SessionStartReason; previousSessionFile?: string }]>(["event"], "session_start"),
    session_before_switch: new AsyncSeriesBailHook<[{ reason: "new" | "resume"; targetSessionFile?: string }], CancelVeto | undefined>(["event"], "session_before_switch"),
    session_before_fork: new AsyncSeriesBailHook<[{ entryId: string | null; position: "before" | "at" }], CancelVeto | undefined>(["event"], "session_before_fork"),
    session_before_compact: new AsyncSeriesBailHook<[{ reason: "manual" | "threshold" | "overflow"; parameters: Record<string, unknown>; preparation: unknown; signal: AbortSignal }], CompactVerdict | undefined>(["event"], "session_before_compact"),
    session_compact: new AsyncSeriesHook<[{ reason: "manual" | "threshold" | "overflow"; result: unknown }]>(["event"], "session_compact"),
    session_shutdown: new AsyncSeriesHook<[{ reason: "quit" | "new" | "resume" | "fork" }]>(["event"], "session_shutdown"),
    session_info_changed: new AsyncSeriesHook<[{ name?: string }]>(["event"], "session_info_changed"),

    // ---- prompt
    input: new AsyncSeriesWaterfallHook<[InputEvent]>(["event"], "input"),
    /** Internal guard: a returned string rejects the prompt before any event (model/auth checks). */
    prompt_preflight: new AsyncSeriesBailHook<[{ text: string }], string | undefined>(["event"], "prompt_preflight"),
    system_prompt: new AsyncSeriesWaterfallHook<[string, SystemPromptContext]>(["prompt", "context"], "system_prompt"),
    before_agent_start: new AsyncSeriesWaterfallHook<[{ prompt: string; images?: ImageContent[]; systemPrompt: string }]>(["event"], "before_agent_start"),
    context: new AsyncSeriesWaterfallHook<[{ messages: AgentMessage[] }]>(["event"], "context"),

    // ---- agent loop (notify)
    agent_start: new AsyncSeriesHook<[{}]>(["event"], "agent_start"),
    agent_end: new AsyncSeriesHook<[{ messages: AgentMessage[] }]>(["event"], "agent_end"),
    /** Internal: after agent_end, a tap may ask for a continuation (retry, overflow compaction). */
    run_end: new AsyncSeriesBailHook<[RunEndEvent], { continue: true } | undefined>(["event"], "run_end"),
    turn_start: new AsyncSeriesHook<[{ turnIndex: number }]>(["event"], "turn_start"),
    turn_end: new AsyncSeriesHook<[{ turnIndex: number; message: AssistantMessage; toolResults: ToolResultMessage[] }]>(["event"], "turn_end"),
    message_start: new AsyncSeriesHook<[{ message: AgentMessage }]>(["event"], "message_start"),
    message_update: new AsyncSeriesHook<[{ message: AssistantMessage; assistantMessageEvent: AssistantMessageEvent }]>(["event"], "message_update"),
    message_end: new AsyncSeriesHook<[{ message: AgentMessage }]>(["event"], "message_end"),

    // ---- tools
    tool_call: new AsyncSeriesBailHook<[ToolCallEvent], ToolCallVeto | undefined>(["event"], "tool_call"),
    tool_result: new AsyncSeriesWaterfallHook<[ToolResultEvent]>(["event"], "tool_result"),
    tool_execution_start: new AsyncSeriesHook<[{ toolCallId: string; toolName: string; args: unknown }]>(["event"], "tool_execution_start"),
    tool_execution_update: new AsyncSeriesHook<[{ toolCallId: string; toolName: string; args: unknown; partialResult: unknown }]>(["event"], "tool_execution_update"),
    tool_execution_end: new AsyncSeriesHook<[{ toolCallId: string; toolName: string; result: unknown; isError: boolean }]>(["event"], "tool_execution_end"),

    // ---- model
    model_select: new AsyncSeriesHook<[{ model: Model; previousModel?: Model; source: "set" | "cycle" | "restore" | "startup" }]>(["event"], "model_select"),
    thinking_level_select: new AsyncSeriesHook<[{ level: ThinkingLevel; previousLevel: ThinkingLevel }]>(["event"], "thinking_level_select"),
    before_provider_request: new AsyncSeriesWaterfallHook<[{ payload: unknown; model: Model }]>(["event"], "before_provider_request"),
    /** Providers, keyed by API name (`anthropic-messages`, `openai-completions`, ...): first tap that answers streams. */
    stream: new HookMap<SyncBailHook<[StreamRequest], AssistantStream | undefined>>(
      (api: string) => new SyncBailHook<[StreamRequest], AssistantStream | undefined>(["request"], `stream:${api}`),
      "stream",
    ),
  };
}

export type Hooks = ReturnType<typeof buildHooks>;
export type HookName = keyof Hooks;

export type HookPolicy = "guard" | "transform" | "notify" | "internal";

/**
 * How a failing tap is treated. Guards fail closed (the error counts as a veto), transforms and
 * notifications isolate the tap (value passes through, error reported), internal hooks propagate.
 */
export const HOOK_POLICY: Readonly<Record<HookName, HookPolicy>> = Object.freeze({
  boot: "internal",
  shutdown: "notify",
  plugin_error: "internal",
  ui_response: "notify",
  session_start: "notify",
  session_before_switch: "guard",
  session_before_fork: "guard",
  session_before_compact: "guard",
  session_compact: "notify",
  session_shutdown: "notify",
  session_info_changed: "notify",
  input: "transform",
  prompt_preflight: "internal",
  system_prompt: "transform",
  before_agent_start: "transform",
  context: "transform",
  agent_start: "notify",
  agent_end: "notify",
  run_end: "internal",
  turn_start: "notify",
  turn_end: "notify",
  message_start: "notify",
  message_update: "notify",
  message_end: "notify",
  tool_call: "guard",
  tool_result: "transform",
  tool_execution_start: "notify",
  tool_execution_update: "notify",
  tool_execution_end: "notify",
  model_select: "notify",
  thinking_level_select: "notify",
  before_provider_request: "transform",
  stream: "internal",
});

/** What a guard's failure turns into: a veto the caller already understands. */
const GUARD_VETO: Partial<Record<HookName, (message: string) => unknown>> = {
  tool_call: (message) => ({ block: true, reason: `Tool call blocked: ${message}` }),
  session_before_switch: () => ({ cancel: true }),
  session_before_fork: () => ({ cancel: true }),
  session_before_compact: () => ({ cancel: true }),
};

type ErrorSink = (event: PluginErrorEvent) => void;

interface MutableTap {
  name: string;
  type: "sync" | "async" | "promise";
  fn: Function;
}

/** Wraps every tap's fn once, at registration, so the policy lives in one place. */
function policyInterceptor(hookName: HookName, policy: HookPolicy, report: ErrorSink) {
  return {
    register(tap: MutableTap) {
      if (policy === "internal") return tap;
      const original = tap.fn;
      const recover = (error: unknown, args: unknown[]): unknown => {
        const message = error instanceof Error ? error.message : String(error);
        report({ source: tap.name, hook: hookName, error: message });
        if (policy === "transform") return args[0];
        if (policy === "guard") return GUARD_VETO[hookName]?.(message);
        return undefined;
      };
      if (tap.type === "promise") {
        tap.fn = (...args: unknown[]) => {
          try {
            return Promise.resolve(original(...args)).catch((error: unknown) => recover(error, args));
          } catch (error) {
            return Promise.resolve(recover(error, args));
          }
        };
      } else if (tap.type === "async") {
        tap.fn = (...args: unknown[]) => {
          const callback = args[args.length - 1] as (error: unknown, result?: unknown) => void;
          const rest = args.slice(0, -1);
          try {
            original(...rest, (error: unknown, result?: unknown) =>
              error ? callback(null, recover(error, rest)) : callback(null, result),
            );
          } catch (error) {
            callback(null, recover(error, rest));
          }
        };
      } else {
        tap.fn = (...args: unknown[]) => {
          try {
            const result = original(...args);
            if (result && typeof (result as Promise<unknown>).then === "function") {
              return (result as Promise<unknown>).catch((error: unknown) => recover(error, args));
            }
            return result;
          } catch (error) {
            return recover(error, args);
          }
        };
      }
      return tap;
    },
  };
}

/** A fresh, frozen catalogue whose taps follow `HOOK_POLICY`; failures are sent to `report`. */
export function createHooks(report: ErrorSink): Hooks {
  const hooks = buildHooks();
  for (const name of Object.keys(hooks) as HookName[]) {
    const hook = hooks[name];
    if (hook instanceof HookMap) continue;
    (hook as { intercept(i: unknown): void }).intercept(policyInterceptor(name, HOOK_POLICY[name], report));
  }
  return Object.freeze(hooks);
}

/** Hooks minus the caller side: what extensions are handed. */
export type TapOnly<H> = { [K in keyof H]: H[K] extends HookMap<infer I> ? { for(key: string): Omit<I, "call" | "callAsync" | "promise"> } : Omit<H[K], "call" | "callAsync" | "promise"> };

/** Named tap stages: lower runs first. Use `before:` only for a real dependency. */
export const STAGE = Object.freeze({ FIRST: -1000, GUARD: -100, DEFAULT: 0, OBSERVE: 100, LAST: 1000 });
