/**
 * Read-only views extensions get on `ctx`: the current session (pi's `ReadonlySessionManager`,
 * over the `session` service) and the model catalog with credentials (pi's `ModelRegistry`,
 * over the `models` and `agent` services; its typed models over lib/typed-models).
 */
import type { AssistantMessage, Model } from "../../lib/llm/index.js";
import type { SessionEntry, SessionHeader } from "../session/api.js";
import type { AgentApi } from "../agent/api.js";
import type { ModelsApi } from "../models/api.js";
import type { SessionApi } from "../session/api.js";
import type { Context, SimpleStreamOptions } from "./types/llm.js";
import { fromTranscript } from "./compat/transcript.js";
import type { ModelRegistryView, ReadonlySessionManager, SessionTreeNode } from "./types/context.js";
import { typedModelFunctions } from "./typed-models.js";

export function sessionView(session: () => SessionApi | undefined, cwd: string, sessionDir: () => string | undefined): ReadonlySessionManager {
  const current = (): SessionApi => {
    const api = session();
    if (!api) throw new Error("No session is available (the session plugin is not loaded)");
    return api;
  };
  const entries = (): SessionEntry[] => [...current().entries()];
  const byId = (id: string) =>
    current()
      .entries()
      .find((entry) => entry.id === id);
  return {
    getCwd: () => cwd,
    getSessionDir: () => sessionDir(),
    getSessionId: () => current().header().id,
    getSessionFile: () => current().sessionFile(),
    getSessionName: () => current().sessionName(),
    getHeader: (): SessionHeader => current().header(),
    getLeafId: () => current().leafId(),
    getLeafEntry: () => {
      const leaf = current().leafId();
      return leaf === null ? undefined : byId(leaf);
    },
    getEntry: byId,
    getLabel: (id) => {
      let label: string | undefined;
      for (const entry of current().entries()) if (entry.type === "label" && entry.targetId === id) label = entry.label || undefined;
      return label;
    },
    getBranch: (fromId) => {
      if (fromId === undefined) return current().branch();
      const index = new Map(
        current()
          .entries()
          .map((entry) => [entry.id, entry]),
      );
      const path: SessionEntry[] = [];
      for (let entry = index.get(fromId); entry; entry = entry.parentId === null ? undefined : index.get(entry.parentId)) path.push(entry);
      return path.reverse();
    },
    getEntries: entries,
    getTree: () => buildTree(entries()),
  };
}

/** Entries as a forest by parentId; an entry whose parent is missing is a root. */
function buildTree(entries: SessionEntry[]): SessionTreeNode[] {
  const nodes = new Map(entries.map((entry) => [entry.id, { entry, children: [] as SessionTreeNode[] }]));
  const roots: SessionTreeNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.entry.parentId === null ? undefined : nodes.get(node.entry.parentId);
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

export function modelRegistryView(models: () => ModelsApi, agent: () => AgentApi, env: () => Readonly<Record<string, string | undefined>>): ModelRegistryView {
  const view: ModelRegistryView = {
    find: (provider, modelId) => models().find(provider, modelId),
    getAll: () => models().all(),
    getAvailable: () => models().available(),
    hasConfiguredAuth: (model) => models().authStatus(model.provider).configured,
    getApiKey: (model) => models().apiKey(model.provider),
    getApiKeyForProvider: (provider) => models().apiKey(provider),
    getApiKeyAndHeaders: async (model) => {
      try {
        const [apiKey, headers] = await Promise.all([models().apiKey(model.provider), models().headers(model)]);
        return { ok: true, apiKey, headers };
      } catch (error) {
        return { ok: false, error: error instanceof Error ? error.message : String(error) };
      }
    },
    complete: (model, context, options) => completeWith(agent(), model, context, options),
    stream: (model, context, options) => streamWith(agent(), model, context, options),
    streamSimple: (model, context, options) => streamWith(agent(), model, context, options),
    ...typedModelFunctions(models, env),
    getProviderAuthStatus: (provider) => models().authStatus(provider),
    getProviderDisplayName: (provider) => provider,
    isUsingOAuth: (model) => models().usesLogin(model.provider),
    getError: () => undefined,
  };
  return view;
}

/** One LLM call through the agent's providers; resolves with the final message (an error or abort is a message too). */
export async function completeWith(agent: AgentApi, model: Model, context: Context, options: SimpleStreamOptions = {}): Promise<AssistantMessage> {
  let final: AssistantMessage | undefined;
  for await (const event of streamWith(agent, model, context, options)) {
    if (event.type === "done") final = event.message;
    else if (event.type === "error") final = event.error;
  }
  if (!final) throw new Error(`The provider for ${model.provider}/${model.id} ended without a final message`);
  return final;
}

/** `context` as pi-ai's `Context`, or as pi 1.x's transcript (the prompt and tools in `system` messages, what its `Agent` sends). */
export function streamWith(agent: AgentApi, model: Model, context: Context, options: SimpleStreamOptions = {}) {
  const transcript = fromTranscript(context.messages);
  const tools = transcript?.tools.length ? transcript.tools : context.tools;
  return agent.complete({
    model,
    systemPrompt: transcript?.systemPrompt ?? context.systemPrompt ?? "",
    messages: (transcript?.messages ?? context.messages) as Context["messages"],
    ...(tools ? { tools } : {}),
    signal: options.signal ?? new AbortController().signal,
    ...(options.reasoning ? { thinkingLevel: options.reasoning } : {}),
    ...(options.maxTokens ? { maxTokens: options.maxTokens } : {}),
  });
}
