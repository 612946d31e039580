/**
 * Helpers that keep provider plugins cheap to load: the adapter code and its SDK are imported
 * on the first request (or warmed in the background once a model of that API is selected), so
 * startup only pays for a few lines per provider.
 */
import { batchedAssistantStream, type AssistantStream, type StreamRequest } from "../llm/index.js";
import type { PluginContext } from "../../kernel/index.js";
import type { ProviderBody, ProviderStreamOptions } from "./provider-stream.js";
import type { ProviderModelsApi } from "./types.js";

const WARM_DELAY_MS = 150;

/**
 * The `models` service as a provider plugin needs it. Typed here, so a provider written outside
 * this repository compiles against the toolkit alone (no augmentation of `Services` needed).
 */
export function providerModels(k: PluginContext): ProviderModelsApi {
  return (k.service as unknown as (name: string) => ProviderModelsApi)("models");
}

/** The `stream` hook answer: loads the stream frame and the adapter body, then streams. */
export function lazyProviderStream(models: ProviderModelsApi, request: StreamRequest, loadBody: () => Promise<ProviderBody>, options?: ProviderStreamOptions): AssistantStream {
  return batchedAssistantStream(async function* lazyBatches() {
    const [{ providerBatches }, body] = await Promise.all([import("./provider-stream.js"), loadBody()]);
    yield* providerBatches(models, request, body, options);
  });
}

/**
 * Starts `load` in the background once a model of one of `apis` is selected (the startup
 * choice included: it fires `model_select` too), with the HTTP transport of the model's
 * `baseUrl`, so the first request does not wait for the SDK import or node:https.
 */
export function warmSdkWhenUsed(k: PluginContext, apis: readonly string[], load: (api: string) => Promise<unknown>): void {
  const warmed = new Set<string>();
  const waiting = new Set<NodeJS.Timeout>();
  const loading = new Set<Promise<unknown>>();
  let closed = false;
  k.hooks.model_select.tap(k.name, ({ model }) => {
    if (closed || warmed.has(model.api) || !apis.includes(model.api)) return;
    warmed.add(model.api);
    // After a short pause, not at once: a client's first commands are answered before the SDK
    // load (a few ms of compiling) competes with them; a prompt that comes sooner loads it itself.
    // The transport too (node:https and TLS for most providers), loaded but never connected: no
    // request leaves before a prompt does.
    const warm = () => Promise.all([import("./provider-stream.js").then(({ warmTransport }) => warmTransport(model.baseUrl)), load(model.api)]);
    const timer = setTimeout(() => {
      waiting.delete(timer);
      const loaded = warm().catch(() => undefined);
      loading.add(loaded);
      void loaded.finally(() => loading.delete(loaded));
    }, WARM_DELAY_MS).unref();
    waiting.add(timer);
  });
  // A host shut down starts no load (an embedder's module graph may be gone by then) and ends
  // only once a load already started has: last, so sessions are flushed without waiting for it.
  k.hooks.shutdown.tapPromise({ name: k.name, order: "post" }, async () => {
    closed = true;
    for (const timer of waiting) clearTimeout(timer);
    waiting.clear();
    await Promise.all(loading);
  });
}
