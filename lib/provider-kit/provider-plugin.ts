/**
 * Helpers that keep provider plugins cheap to load: the adapter code and its SDK are imported
 * on the first request (or warmed in the background once a model of that API is selected), so
 * startup only pays for a few lines per provider.
 */
import type { AssistantMessageEvent, AssistantStream, PluginContext, StreamRequest } from "../../kernel/index.js";
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
export function lazyProviderStream(
  models: ProviderModelsApi,
  request: StreamRequest,
  loadBody: () => Promise<ProviderBody>,
  options?: ProviderStreamOptions,
): AssistantStream {
  // Not an async generator around the frame's: that would add a promise hop to every event of
  // the answer. Once the modules are loaded, each call goes straight to the frame's generator.
  let inner: AsyncIterator<AssistantMessageEvent, void, undefined> | undefined;
  let opening: Promise<AsyncIterator<AssistantMessageEvent, void, undefined>> | undefined;
  const open = () =>
    (opening ??= Promise.all([import("./provider-stream.js"), loadBody()]).then(
      ([{ providerStream }, body]) => (inner = providerStream(models, request, body, options)[Symbol.asyncIterator]() as AsyncIterator<AssistantMessageEvent, void, undefined>),
    ));
  const finished = (): Promise<IteratorResult<AssistantMessageEvent, void>> => Promise.resolve({ done: true, value: undefined });
  const stream: AsyncIterableIterator<AssistantMessageEvent, void, undefined> = {
    next: () => (inner ? inner.next() : open().then((iterator) => iterator.next())),
    // Before anything was loaded there is nothing to cancel: the stream just ends.
    return: () => (inner?.return ? inner.return() : finished()),
    [Symbol.asyncIterator]() {
      return stream;
    },
  };
  return stream;
}

/**
 * Starts `load` in the background once a model of one of `apis` is selected (the startup
 * choice included: it fires `model_select` too), so the first request does not wait for the
 * SDK import.
 */
export function warmSdkWhenUsed(k: PluginContext, apis: readonly string[], load: (api: string) => Promise<unknown>): void {
  const warmed = new Set<string>();
  k.hooks.model_select.tap(k.name, ({ model }) => {
    if (warmed.has(model.api) || !apis.includes(model.api)) return;
    warmed.add(model.api);
    // After a short pause, not at once: a client's first commands are answered before the SDK
    // load (a few ms of compiling) competes with them; a prompt that comes sooner loads it itself.
    setTimeout(() => void Promise.all([import("./provider-stream.js"), load(model.api)]).catch(() => undefined), WARM_DELAY_MS).unref();
  });
}
