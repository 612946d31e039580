/**
 * The extension points of one provider HTTP request (pi's `before_provider_headers`,
 * `before_provider_request`, `after_provider_response`, `provider_stream_event`), applied where every SDK meets the
 * network: the fetch the frame hands it. Headers are edited as the SDK will send them (a tap may
 * remove one of the SDK's own by setting it to null), a JSON body is handed to the payload taps
 * as the object the SDK built, and the response's status and headers are announced before the
 * body is read. Nothing is parsed or copied when no hook is tapped.
 */
import type { Model } from "../llm/index.js";
import { FetchHeaders } from "./fetch-headers.js";

export interface ProviderRequestHooks {
  /** True when any of the three hooks has taps. */
  active(): boolean;
  /** before_provider_headers: the headers after the taps (a `null` removed the header). */
  headers(model: Model, headers: Record<string, string>): Promise<Record<string, string>>;
  /** before_provider_request: the payload after the taps (a tap may replace it). */
  payload(model: Model, payload: unknown): Promise<unknown>;
  /** after_provider_response: status and headers, before the body is read. */
  response(model: Model, status: number, headers: Record<string, string>): Promise<void>;
  /** True when `streamEvent` has taps: a streaming body is then read through it (sse-observer.ts). */
  observesStream?(): boolean;
  /** provider_stream_event: one parsed server-sent event of the response, before the adapter reads it. */
  streamEvent?(model: Model, data: unknown): Promise<void>;
}

/** The request as the hooks leave it (the same object when nothing changed). */
export async function hookedInit(hooks: ProviderRequestHooks, model: Model, init: RequestInit | undefined): Promise<RequestInit | undefined> {
  if (!init) return init;
  const headers = await hooks.headers(model, headerRecord(init.headers));
  let body = init.body;
  if (typeof body === "string" && body.startsWith("{")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = undefined;
    }
    if (parsed !== undefined) {
      const next = await hooks.payload(model, parsed);
      if (next !== parsed) {
        body = JSON.stringify(next);
        // The length the SDK computed no longer holds.
        for (const name of Object.keys(headers)) if (name.toLowerCase() === "content-length") delete headers[name];
      }
    }
  }
  return { ...init, headers, body };
}

export function headerRecord(headers: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  new FetchHeaders(headers).forEach((value, name) => (out[name] = value));
  return out;
}
