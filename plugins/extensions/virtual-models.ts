/**
 * pi's virtual models (`registerVirtualModel`): a selectable catalog entry (API `pi-virtual`)
 * whose every request is routed by the extension's `route(request, ctx)` to a physical model and
 * thinking level, then streamed by that model's provider. The selection (`ctx.model`,
 * `get_state`) names the virtual model; assistant messages name the physical one that answered.
 * What a router returns as `state` is kept on the session branch as a `pi.virtual-model-state`
 * custom entry and handed back on its next request.
 */
import {
  assistantEventBatches,
  batchedAssistantStream,
  emptyUsage,
  type AssistantMessage,
  type AssistantMessageEvent,
  type AssistantStream,
  type Model,
  type StreamRequest,
  type ThinkingLevel,
} from "../../lib/llm/index.js";
import { clampThinkingLevel } from "./compat/pi-ai.js";
import { VIRTUAL_MODEL_STATE_ENTRY } from "./compat/pi-coding-agent.js";
import { toTranscript } from "./compat/transcript.js";
import { createContext } from "./context.js";
import type { ExtensionHost } from "./host.js";
import type { ExtensionVirtualModel, ModelRoute, ModelRouteRequest } from "./types/api.js";
import { VIRTUAL_MODEL_API } from "./virtual-model-api.js";

export { VIRTUAL_MODEL_API };
const ZERO_COST = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
const key = (provider: string, id: string) => `${provider}/${id}`;

interface Router {
  definition: ExtensionVirtualModel<unknown>;
  path: string;
}

export class VirtualModels {
  readonly #host: ExtensionHost;
  readonly #routers = new Map<string, Router>();
  #tapped = false;

  constructor(host: ExtensionHost) {
    this.#host = host;
  }

  /** Checks a definition (throws, naming the field) before it is staged. */
  static check(definition: unknown): asserts definition is ExtensionVirtualModel<unknown> {
    const given = definition as Partial<ExtensionVirtualModel<unknown>> | null;
    if (typeof given !== "object" || given === null) throw new TypeError("registerVirtualModel: expected a virtual model definition object");
    for (const field of ["provider", "id", "name"] as const) {
      if (typeof given[field] !== "string" || given[field] === "") throw new TypeError(`registerVirtualModel: ${field} must be a non-empty string`);
    }
    if (typeof given.route !== "function") throw new TypeError(`registerVirtualModel("${given.provider}/${given.id}"): route must be a function`);
  }

  register(path: string, definition: ExtensionVirtualModel<unknown>): void {
    const models = this.#host.models;
    const { provider, id } = definition;
    const existing = models.find(provider, id);
    if (existing && existing.api !== VIRTUAL_MODEL_API)
      throw new Error(`registerVirtualModel: ${provider}/${id} is a physical model of "${provider}"; a virtual model needs an id of its own`);
    const levels = definition.thinkingLevels && definition.thinkingLevels.length > 0 ? [...definition.thinkingLevels] : (["off"] as const);
    const model: Model = {
      id,
      name: definition.name,
      api: VIRTUAL_MODEL_API,
      provider,
      baseUrl: "",
      reasoning: levels.some((level) => level !== "off"),
      input: definition.input ?? ["text", "image"],
      cost: ZERO_COST,
      // Unknown limits (pi shows 0) would break budgeting; until the routed model answers, a common size.
      contextWindow: definition.contextWindow ?? 128_000,
      maxTokens: definition.maxTokens ?? 16_384,
      thinkingLevels: [...levels],
    };
    // Added to an existing provider's catalog (its auth decides availability); a provider of its own needs no key.
    models.registerProvider({
      name: provider,
      api: models.hasProvider(provider) ? (models.all().find((m) => m.provider === provider)?.api ?? VIRTUAL_MODEL_API) : VIRTUAL_MODEL_API,
      models: [model],
      ...(models.hasProvider(provider) ? {} : { requiresAuth: false }),
    });
    this.#routers.set(key(provider, id), { definition, path });
    if (!this.#tapped) {
      this.#tapped = true;
      this.#host.k.hooks.stream.for(VIRTUAL_MODEL_API).tap(this.#host.k.name, (request) => this.#stream(request));
    }
  }

  unregister(provider: string, id: string): void {
    if (!this.#routers.delete(key(String(provider), String(id)))) return;
    this.#host.models.removeModel(String(provider), String(id));
  }

  #stream(request: StreamRequest): AssistantStream {
    const host = this.#host;
    const router = this.#routers.get(key(request.model.provider, request.model.id));
    const routeOf = (found: Router) => this.#route(found, request);
    return batchedAssistantStream(async function* routed(): AsyncGenerator<Iterable<AssistantMessageEvent>, void, undefined> {
      let stream: AssistantStream;
      let route: ModelRoute<unknown>;
      try {
        if (!router) throw new Error(`Virtual model ${request.model.provider}/${request.model.id} is no longer registered`);
        route = await routeOf(router);
        stream = host.agent.complete({
          model: route.model,
          systemPrompt: request.context.systemPrompt,
          messages: request.context.messages,
          tools: request.context.tools,
          signal: request.options.signal,
          thinkingLevel: route.thinkingLevel,
          ...(request.options.maxTokens ? { maxTokens: request.options.maxTokens } : {}),
        });
      } catch (error) {
        yield [failed(request, error)];
        return;
      }
      // A loop call's answer records the routed level, as pi's agent loop does (one-off calls record none).
      if (request.options.direct) yield* assistantEventBatches(stream);
      else for await (const batch of assistantEventBatches(stream)) yield withLevel(batch, route.thinkingLevel);
    });
  }

  async #route(router: Router, request: StreamRequest): Promise<ModelRoute<unknown>> {
    const host = this.#host;
    const { provider, id } = request.model;
    const messages = request.context.messages;
    const last = messages.at(-1);
    // Whether a run is streaming says nothing: compaction's planner and extensions complete() inside runs.
    const retrying = request.options.direct ? undefined : request.options.retrying;
    const reason: ModelRouteRequest["reason"] = request.options.direct ? "direct" : retrying ? "retry" : last?.role === "user" ? "user" : "continuation";
    const state = reason === "direct" ? undefined : this.#state(provider, id);
    const previous = latestAnswer(host, messages);
    const failedLevel = retrying?.thinkingLevel;
    // A failed routing names the virtual model: no physical request to report (pi leaves `failed` out).
    const failedModel = retrying ? physical(host, retrying.provider, retrying.model) : undefined;
    const routeRequest: ModelRouteRequest<unknown> = {
      model: request.model,
      thinkingLevel: request.options.thinkingLevel,
      reason,
      ...(previous ? { previous: { model: previous.model, ...(previous.thinkingLevel ? { thinkingLevel: previous.thinkingLevel } : {}) } } : {}),
      ...(retrying && failedModel ? { failed: { model: failedModel, ...(failedLevel ? { thinkingLevel: failedLevel } : {}), message: retrying } } : {}),
      ...(state !== undefined ? { state } : {}),
      messages: toTranscript({ systemPrompt: request.context.systemPrompt, tools: request.context.tools, messages: [...messages] }),
      signal: request.options.signal,
    };
    const route = await host.enter(() => router.definition.route(routeRequest, createContext(host)));
    const target = route?.model ? (host.models.find(route.model.provider, route.model.id) ?? route.model) : undefined;
    if (!target || typeof target.api !== "string") throw new Error(`The router of ${provider}/${id} (${router.path}) returned no model`);
    if (target.api === VIRTUAL_MODEL_API)
      throw new Error(`The router of ${provider}/${id} returned the virtual model ${target.provider}/${target.id}; it must pick a physical one`);
    if (!host.models.authStatus(target.provider).configured) throw new Error(`The router of ${provider}/${id} picked ${target.provider}/${target.id}, which has no credentials`);
    if (reason !== "direct" && route.state !== undefined && route.state !== state) {
      host.session?.append({ type: "custom", customType: VIRTUAL_MODEL_STATE_ENTRY, data: { provider, modelId: id, state: route.state } });
    }
    // Clamped to the model that answers, as pi does: the level its answer records.
    return { model: target, thinkingLevel: clampThinkingLevel(target, route.thinkingLevel ?? request.options.thinkingLevel) };
  }

  /** The router state last stored on the session branch for this virtual model. */
  #state(provider: string, modelId: string): unknown {
    const branch = this.#host.session?.branch() ?? [];
    for (let i = branch.length - 1; i >= 0; i--) {
      const entry = branch[i]!;
      if (entry.type !== "custom" || entry.customType !== VIRTUAL_MODEL_STATE_ENTRY) continue;
      const data = entry.data as { provider?: unknown; modelId?: unknown; state?: unknown } | undefined;
      if (data?.provider === provider && data.modelId === modelId) return data.state;
    }
    return undefined;
  }
}

/** A catalog model that is not virtual. */
function physical(host: ExtensionHost, provider: string, id: string): Model | undefined {
  const model = host.models.find(provider, id);
  return model && model.api !== VIRTUAL_MODEL_API ? model : undefined;
}

/** The physical model of the latest successful answer among `messages`, and the level it recorded. */
function latestAnswer(host: ExtensionHost, messages: readonly { role: string }[]): { model: Model; thinkingLevel: ThinkingLevel | undefined } | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as AssistantMessage;
    if (message.role !== "assistant" || message.stopReason === "error" || message.stopReason === "aborted") continue;
    const model = host.models.find(message.provider, message.model);
    return model && { model, thinkingLevel: message.thinkingLevel };
  }
  return undefined;
}

/** A batch of the routed stream with its final answer recording `level`. */
function* withLevel(batch: Iterable<AssistantMessageEvent>, level: ThinkingLevel): Generator<AssistantMessageEvent, void, undefined> {
  for (const event of batch) {
    if (event.type === "done") yield { ...event, message: { ...event.message, thinkingLevel: level } };
    else if (event.type === "error") yield { ...event, error: { ...event.error, thinkingLevel: level } };
    else yield event;
  }
}

function failed(request: StreamRequest, error: unknown): AssistantMessageEvent {
  const aborted = request.options.signal.aborted;
  const message: AssistantMessage = {
    role: "assistant",
    content: [],
    api: request.model.api,
    provider: request.model.provider,
    model: request.model.id,
    usage: emptyUsage(),
    stopReason: aborted ? "aborted" : "error",
    errorMessage: aborted ? "Request was aborted" : error instanceof Error ? error.message : String(error),
    timestamp: Date.now(),
  };
  return { type: "error", reason: aborted ? "aborted" : "error", error: message, partial: message };
}
