/**
 * The frame every provider adapter runs in: resolves the key and headers, links cancellation,
 * and guarantees the stream contract — exactly one final `done` or `error`, and once a request
 * has started, failures arrive as an `error` event (never as an exception into the agent loop).
 */
import type { AssistantMessageEvent, AssistantStream, StreamRequest } from "../../kernel/index.js";
import type { ProviderModelsApi } from "./types.js";
import { AssistantStreamBuilder } from "./stream-builder.js";

export const ABORTED_MESSAGE = "Request was aborted";

export interface ProviderCall {
  request: StreamRequest;
  builder: AssistantStreamBuilder;
  apiKey: string;
  /** Model headers from models.json, resolved. */
  headers: Record<string, string>;
  /** Aborted when the caller aborts or stops reading: pass it to the SDK. */
  signal: AbortSignal;
}

export type ProviderBody = (call: ProviderCall) => AsyncGenerator<AssistantMessageEvent, void, undefined>;

export interface ProviderStreamOptions {
  /** false: the provider needs no key (e.g. a local server); an empty string is passed. */
  requiresKey?: boolean;
}

/** Wraps an adapter body into the unified stream the `stream` hook returns. */
export function providerStream(models: ProviderModelsApi, request: StreamRequest, body: ProviderBody, options: ProviderStreamOptions = {}): AssistantStream {
  return run(models, request, body, options);
}

async function* run(models: ProviderModelsApi, request: StreamRequest, body: ProviderBody, options: ProviderStreamOptions): AsyncGenerator<AssistantMessageEvent> {
  const builder = new AssistantStreamBuilder(request.model);
  const outer = request.options.signal;
  const controller = new AbortController();
  const onAbort = () => controller.abort(outer.reason);
  if (outer.aborted) controller.abort(outer.reason);
  else outer.addEventListener("abort", onAbort, { once: true });
  try {
    let apiKey: string | undefined;
    let headers: Record<string, string>;
    try {
      [apiKey, headers] = await Promise.all([models.apiKey(request.model.provider), models.headers(request.model)]);
    } catch (error) {
      yield builder.error(errorText(error));
      return;
    }
    if (!apiKey && options.requiresKey !== false) {
      yield builder.error(`No API key found for ${request.model.provider}.`);
      return;
    }
    try {
      for await (const event of body({ request, builder, apiKey: apiKey ?? "", headers, signal: controller.signal })) {
        yield event;
        if (builder.finished) return;
      }
    } catch (error) {
      if (!builder.finished) yield builder.error(outer.aborted ? ABORTED_MESSAGE : errorText(error), outer.aborted);
      return;
    }
    // Some SDKs end their iterator silently on abort; a body may also just run out of events.
    if (!builder.finished) {
      yield outer.aborted ? builder.error(ABORTED_MESSAGE, true) : builder.error("Provider stream ended without a final message");
    }
  } finally {
    outer.removeEventListener("abort", onAbort);
    // The consumer may stop reading early: cancel the HTTP request either way.
    if (!controller.signal.aborted) controller.abort();
  }
}

/** The SDK's own wording (status + body text) is kept: retry and overflow checks read it. */
export function errorText(error: unknown): string {
  // A JSON parse failure inside an SDK means the provider sent a broken stream record.
  if (error instanceof SyntaxError) return `Malformed response from provider: ${error.message}`;
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const detail = cause instanceof Error && cause.message && !error.message.includes(cause.message) ? ` (${cause.message})` : "";
    const message = (error.message || error.name) + detail;
    // Keep "<status> <text>" for every SDK (some put the status only in a property).
    const status = (error as { status?: unknown }).status;
    if (typeof status === "number") return message.startsWith(String(status)) ? message : `${status} ${message}`;
    // An in-stream error has no status: its code/type ("server_error") is what tells a transient
    // failure apart, and some SDKs keep it only in a property.
    const { code, type } = error as { code?: unknown; type?: unknown };
    const kind = [code, type].find((value): value is string => typeof value === "string" && value !== "" && !message.includes(value));
    return kind ? `${message} (${kind})` : message;
  }
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}
