/**
 * `pi.registerProvider(name, config)`: models for Atomic's catalog (the `models` service). With
 * a known API (`openai-completions`, `anthropic-messages`, ...) Atomic's own provider streams
 * them from `baseUrl`; with `streamSimple`, the extension's function streams them (a `stream` tap
 * for its API that answers only for this provider's models). A config without `models` changes
 * the `baseUrl`/`headers` of a provider's existing models.
 */
import type { AssistantMessageEvent, Model, StreamRequest } from "../../lib/llm/index.js";
import type { ExtensionHost } from "./host.js";
import type { ExtensionRecord } from "./record.js";
import type { ProviderConfig, ProviderModelConfig } from "./types/api.js";

const ZERO_COST = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

export function checkProvider(name: unknown, config: unknown): asserts config is ProviderConfig {
  if (typeof name !== "string" || name.trim() === "") throw new TypeError(`registerProvider: the provider name must be a non-empty string (got ${JSON.stringify(name)})`);
  if (typeof config !== "object" || config === null) throw new TypeError(`registerProvider("${name}"): expected a config object`);
  const { models, streamSimple, baseUrl, api } = config as ProviderConfig;
  if (models !== undefined && !Array.isArray(models)) throw new TypeError(`registerProvider("${name}"): models must be an array`);
  if (streamSimple !== undefined && typeof streamSimple !== "function") throw new TypeError(`registerProvider("${name}"): streamSimple must be a function`);
  for (const [i, model] of (models ?? []).entries()) {
    if (typeof model?.id !== "string" || model.id === "") throw new TypeError(`registerProvider("${name}"): models[${i}].id must be a non-empty string`);
    if (typeof (model.api ?? api) !== "string") throw new TypeError(`registerProvider("${name}"): models[${i}] needs an api (on the model or the provider)`);
    if (!streamSimple && typeof (model.baseUrl ?? baseUrl) !== "string")
      throw new TypeError(`registerProvider("${name}"): models[${i}] needs a baseUrl (on the model or the provider)`);
  }
}

export function registerProvider(host: ExtensionHost, record: ExtensionRecord, name: string, config: ProviderConfig): void {
  const models = host.models;
  if (config.oauth !== undefined)
    host.report(
      record.path,
      "register_provider",
      `Provider "${name}": an extension's own OAuth login is not run by Atomic (\`atomic login\` signs in to pi's built-in providers); use apiKey`,
    );
  let list: Model[];
  if (config.models) {
    list = config.models.map((model) => toModel(name, config, model));
  } else {
    list = models.modelsOf(name);
    if (list.length === 0) throw new Error(`registerProvider("${name}"): no models given, and Atomic has no provider "${name}" whose models it could change`);
    list = list.map((model) => ({
      ...model,
      ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
      ...(config.headers ? { headers: { ...model.headers, ...config.headers } } : {}),
    }));
  }
  // A custom stream with no key of its own needs no credential (it authenticates itself, if at all).
  const keyless = config.streamSimple !== undefined && config.apiKey === undefined;
  models.registerProvider({
    name,
    api: list[0]!.api,
    ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
    models: list,
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    ...(config.authHeader ? { authHeader: true } : {}),
    ...(keyless ? { requiresAuth: false } : {}),
  });
  if (config.streamSimple) tapStream(host, record, name, config.streamSimple, new Set(list.map((model) => model.api)));
  record.providers.push(name);
}

function toModel(provider: string, config: ProviderConfig, model: ProviderModelConfig): Model {
  const headers = config.headers || model.headers ? { ...config.headers, ...model.headers } : undefined;
  return {
    id: model.id,
    name: model.name ?? model.id,
    api: (model.api ?? config.api)!,
    provider,
    baseUrl: model.baseUrl ?? config.baseUrl ?? "",
    reasoning: model.reasoning === true,
    input: model.input ?? ["text"],
    cost: model.cost ?? ZERO_COST,
    contextWindow: model.contextWindow ?? 128_000,
    maxTokens: model.maxTokens ?? 16_384,
    ...(headers ? { headers } : {}),
    ...(model.compat ? { compat: model.compat } : {}),
  };
}

function tapStream(host: ExtensionHost, record: ExtensionRecord, provider: string, streamSimple: NonNullable<ProviderConfig["streamSimple"]>, apis: Set<string>): void {
  for (const api of apis) {
    // Ahead of a built-in provider of the same API, and only for this provider's models.
    host.k.hooks.stream.for(api).tap({ name: record.path, order: "pre" }, (request) => (request.model.provider === provider ? relay(host, streamSimple, request) : undefined));
  }
}

async function* relay(host: ExtensionHost, streamSimple: NonNullable<ProviderConfig["streamSimple"]>, request: StreamRequest): AsyncGenerator<AssistantMessageEvent> {
  const { model, context, options } = request;
  const apiKey = await host.models.apiKey(model.provider);
  const events = host.enter(() =>
    streamSimple(model, context, {
      signal: options.signal,
      reasoning: options.thinkingLevel,
      ...(options.maxTokens ? { maxTokens: options.maxTokens } : {}),
      ...(options.sessionId ? { sessionId: options.sessionId } : {}),
      ...(apiKey ? { apiKey } : {}),
    }),
  );
  // Each step is the extension's code running for this agent (see load-module.ts).
  const iterator = events[Symbol.asyncIterator]();
  try {
    for (;;) {
      const step = await host.enter(() => iterator.next());
      if (step.done) return;
      yield step.value;
    }
  } finally {
    await host.enter(() => iterator.return?.());
  }
}
