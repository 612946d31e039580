/**
 * The frame every provider adapter runs in: resolves the key, headers and base URL (abortable:
 * a slow `!command` key never holds up an abort), links cancellation, gives the SDK a fetch that
 * keeps what it may drop of an HTTP error, and guarantees the stream contract — exactly one
 * final `done` or `error`, and once a request has started, failures arrive as an `error` event
 * (never as an exception into the agent loop). It hands events on in batches (the kernel's
 * `eventBatches`): an adapter may yield a lazy batch per network read instead of each event.
 */
import { batchedAssistantStream, type AssistantMessageEvent, type AssistantStream, type StreamRequest } from "../llm/index.js";
import { errorText, failureText, type HttpFailure } from "./failure-text.js";
import { httpFetch } from "./http-fetch.js";
import { requestHeaders, type RequestHeaders } from "./request-headers.js";
import { headerRecord, hookedInit } from "./request-hooks.js";
import { retryAfterFromHeaders } from "./retry-delay.js";
import { AssistantStreamBuilder } from "./stream-builder.js";
import type { ProviderModelsApi, RequestCredentials } from "./types.js";

export { errorText } from "./failure-text.js";
export { warmTransport } from "./http-fetch.js";

export const ABORTED_MESSAGE = "Request was aborted";

export interface ProviderCall {
  request: StreamRequest;
  builder: AssistantStreamBuilder;
  apiKey: string;
  /**
   * Model headers (catalog, models.json, the auth header it asks for), resolved, with those the
   * model's compat asks for (request-headers.ts); `null` removes a header the SDK would send.
   */
  headers: RequestHeaders;
  /** The base URL to call: the model's, with any secret of its query string restored. */
  baseUrl: string;
  /** Aborted when the caller aborts or stops reading: pass it to the SDK. */
  signal: AbortSignal;
  /** Give it to the SDK: it keeps the body and `retry-after` of an HTTP error for the error text. */
  fetch: typeof fetch;
}

/**
 * What an adapter yields: one event, or a batch of them (the events of one network read). A
 * batch is walked synchronously by the consumer and should be lazy (a generator that maps as
 * it is walked): the builder's partial must not run ahead of the event being relayed.
 */
export type ProviderYield = AssistantMessageEvent | Iterable<AssistantMessageEvent>;

export type ProviderBody = (call: ProviderCall) => AsyncGenerator<ProviderYield, void, undefined>;

export interface ProviderStreamOptions {
  /** false: the provider needs no key (e.g. a local server); an empty string is passed. */
  requiresKey?: boolean;
}

/** Wraps an adapter body into the unified stream the `stream` hook returns. */
export function providerStream(models: ProviderModelsApi, request: StreamRequest, body: ProviderBody, options: ProviderStreamOptions = {}): AssistantStream {
  return batchedAssistantStream(() => providerBatches(models, request, body, options));
}

/** The frame's events in batches (what `providerStream` wraps). */
export async function* providerBatches(
  models: ProviderModelsApi,
  request: StreamRequest,
  body: ProviderBody,
  options: ProviderStreamOptions = {},
): AsyncGenerator<Iterable<AssistantMessageEvent>, void, undefined> {
  const builder = new AssistantStreamBuilder(request.model);
  const outer = request.options.signal;
  const controller = new AbortController();
  const onAbort = () => controller.abort(outer.reason);
  if (outer.aborted) controller.abort(outer.reason);
  else outer.addEventListener("abort", onAbort, { once: true });
  let httpFailure: HttpFailure | undefined;
  const hooks = models.requestHooks?.active() ? models.requestHooks : undefined;
  const capturingFetch: typeof fetch = async (input, init) => {
    // Our own signal too, not only the SDK's: an SDK unlinks its signal from ours once it thinks
    // the body is done with (Anthropic's does when the body object is collected), and the body
    // is read here, past the SDK.
    const linked: RequestInit = { ...init, signal: init?.signal ? AbortSignal.any([init.signal, controller.signal]) : controller.signal };
    const response = await httpFetch(input, hooks ? await hookedInit(hooks, request.model, linked) : linked, models.httpOptions);
    if (hooks) await hooks.response(request.model, response.status, headerRecord(response.headers));
    if (response.status >= 400) httpFailure = await readFailure(response);
    if (hooks?.observesStream?.()) {
      const { isEventStream, observeEvents } = await import("./sse-observer.js");
      if (isEventStream(response)) return observeEvents(response, (data) => hooks.streamEvent!(request.model, data));
    }
    return response;
  };
  try {
    let credentials: RequestCredentials;
    try {
      credentials = await untilAborted(resolveCredentials(models, request, controller.signal), controller.signal);
    } catch (error) {
      yield [outer.aborted ? builder.error(ABORTED_MESSAGE, true) : builder.error(errorText(error))];
      return;
    }
    if (!credentials.apiKey && options.requiresKey !== false && !credentials.keyless) {
      yield [builder.error(`No API key found for ${request.model.provider}.`)];
      return;
    }
    const call: ProviderCall = {
      request,
      builder,
      apiKey: credentials.apiKey ?? "",
      headers: requestHeaders(request, credentials.apiKey, credentials.headers),
      baseUrl: credentials.baseUrl,
      signal: controller.signal,
      fetch: capturingFetch,
    };
    const failed = (error: unknown) => builder.error(outer.aborted ? ABORTED_MESSAGE : failureText(error, httpFailure), outer.aborted);
    try {
      for await (const item of body(call)) {
        yield isEventBatch(item) ? untilFinal(item, builder, failed) : [item];
        if (builder.finished) return;
      }
    } catch (error) {
      if (!builder.finished) yield [failed(error)];
      return;
    }
    // Some SDKs end their iterator silently on abort; a body may also just run out of events.
    if (!builder.finished) {
      yield [outer.aborted ? builder.error(ABORTED_MESSAGE, true) : builder.error("Provider stream ended without a final message")];
    }
  } finally {
    outer.removeEventListener("abort", onAbort);
    // The consumer may stop reading early: cancel the HTTP request (and a running key command) either way.
    if (!controller.signal.aborted) controller.abort();
  }
}

function isEventBatch(item: ProviderYield): item is Iterable<AssistantMessageEvent> {
  return typeof (item as Partial<Iterable<unknown>>)[Symbol.iterator] === "function";
}

/**
 * A batch as the consumer walks it: nothing after the final event, and a failure while mapping
 * (the adapter runs as it is walked) becomes the final `error` event, as it does between batches.
 */
function* untilFinal(
  batch: Iterable<AssistantMessageEvent>,
  builder: AssistantStreamBuilder,
  failed: (error: unknown) => AssistantMessageEvent,
): Generator<AssistantMessageEvent, void, undefined> {
  try {
    for (const event of batch) {
      yield event;
      if (builder.finished) return;
    }
  } catch (error) {
    if (!builder.finished) yield failed(error);
  }
}

/** Key, headers and base URL, from a registry that resolves them at once or the basic contract. */
async function resolveCredentials(models: ProviderModelsApi, request: StreamRequest, signal: AbortSignal): Promise<RequestCredentials> {
  const { model } = request;
  if (models.requestCredentials) return models.requestCredentials(model, signal);
  const [apiKey, headers] = await Promise.all([models.apiKey(model.provider), models.headers(model)]);
  return { ...(apiKey ? { apiKey } : {}), headers, baseUrl: model.baseUrl };
}

/** Rejects as soon as `signal` aborts, whatever `promise` is still waiting for. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error(ABORTED_MESSAGE));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error(ABORTED_MESSAGE));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** The body of an error response (read from a copy, so the SDK still gets its own). */
async function readFailure(response: Response): Promise<HttpFailure> {
  const body = await response
    .clone()
    .text()
    .catch(() => "");
  const retryAfterMs = retryAfterFromHeaders(response.headers);
  return { status: response.status, body, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
}
