/**
 * The `fetch` the frame gives every provider SDK, carried by node:http and node:https. Node 20's
 * global fetch (undici) costs a fresh process its first-use load (see fetch-headers.ts), then
 * compiles its WebAssembly HTTP parser on the first request and holds ~30 MB more at the peak of
 * a long stream; node's native parser costs neither. The environment's proxy (HTTPS_PROXY, ...,
 * NO_PROXY: see proxy.ts) is honoured. The response is a `FetchResponse` (the standard
 * interface, no undici). What this does not carry itself goes to the global fetch unchanged,
 * and without the proxy: a `Request` object, a body other than a string or bytes, another
 * protocol, and any redirect (re-sent by the global fetch, which follows it as the standard
 * says). No provider SDK sends those.
 */
import type { Agent, ClientRequest, IncomingHttpHeaders, IncomingMessage, RequestOptions } from "node:http";
import type { Readable } from "node:stream";
import { FetchHeaders } from "./fetch-headers.js";
import { FetchResponse } from "./fetch-response.js";
import { proxyRefusal, proxyRouteFor } from "./proxy.js";

/** Statuses whose response carries no body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
const REDIRECT = new Set([301, 302, 303, 307, 308]);
/** undici's headers and body timeouts: the same bound on a silent connection. */
const IDLE_TIMEOUT_MS = 300_000;

interface Transport {
  request(url: URL, options: RequestOptions, callback: (response: IncomingMessage) => void): ClientRequest;
  agent: Agent;
}

const transports = new Map<string, Promise<Transport>>();

/** Keep-alive agents (as undici keeps connections), loaded per protocol on first use. */
function transportFor(protocol: string): Promise<Transport> {
  let transport = transports.get(protocol);
  if (!transport) {
    transport = (protocol === "https:" ? import("node:https") : import("node:http")).then((module) => ({
      request: module.request,
      // Idle sockets are closed after 4 s (undici's default), before most servers drop them.
      agent: new module.Agent({ keepAlive: true, timeout: 4_000 }),
    }));
    transports.set(protocol, transport);
  }
  return transport;
}

export async function httpFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = typeof input === "string" ? new URL(input) : input instanceof URL ? input : undefined;
  const body = init.body;
  const carried = body === undefined || body === null || typeof body === "string" || body instanceof Uint8Array;
  if (!url || !carried || (url.protocol !== "http:" && url.protocol !== "https:") || (init.redirect !== undefined && init.redirect !== "follow")) {
    return fetch(input, init);
  }
  const signal = init.signal ?? undefined;
  signal?.throwIfAborted();
  const { request, agent: direct } = await transportFor(url.protocol);
  const route = await proxyRouteFor(url);
  const agent = route?.agent ?? direct;
  const headers = requestHeaders(init.headers, body);
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(url, { method: init.method ?? "GET", headers, agent }, resolve);
    const onAbort = () => req.destroy(abortReason(signal!) as Error);
    signal?.addEventListener("abort", onAbort, { once: true });
    req.once("close", () => signal?.removeEventListener("abort", onAbort));
    req.once("error", (error) => reject(signal?.aborted ? abortReason(signal) : new TypeError("fetch failed", { cause: error })));
    req.setTimeout(IDLE_TIMEOUT_MS, () => req.destroy(new Error(`No data from the server for ${IDLE_TIMEOUT_MS / 1000} s`)));
    req.end(body ?? undefined);
  });
  const status = response.statusCode ?? 0;
  const refusal = route && proxyRefusal(route, url, status, response.statusMessage ?? "", response.socket);
  if (refusal) {
    response.destroy();
    throw refusal;
  }
  if (REDIRECT.has(status) && response.headers.location) {
    response.destroy();
    return fetch(input, init);
  }
  return toResponse(response, url, status, signal);
}

function requestHeaders(source: HeadersInit | undefined, body: string | Uint8Array | null | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  new FetchHeaders(source).forEach((value, name) => (headers[name] = value));
  // What undici's fetch adds when the caller did not say.
  headers.accept ??= "*/*";
  headers["accept-encoding"] ??= "gzip, deflate, br";
  if (typeof body === "string") headers["content-length"] ??= String(Buffer.byteLength(body));
  else if (body) headers["content-length"] ??= String(body.byteLength);
  return headers;
}

async function toResponse(message: IncomingMessage, url: URL, status: number, signal: AbortSignal | undefined): Promise<FetchResponse> {
  const onAbort = () => message.destroy(abortReason(signal!) as Error);
  signal?.addEventListener("abort", onAbort, { once: true });
  message.once("close", () => signal?.removeEventListener("abort", onAbort));
  message.setTimeout(IDLE_TIMEOUT_MS, () => message.destroy(new Error(`No data from the server for ${IDLE_TIMEOUT_MS / 1000} s`)));
  let body: Readable | null = null;
  if (NULL_BODY.has(status)) message.resume();
  else body = await decoded(message);
  return new FetchResponse(body, { status, statusText: message.statusMessage ?? "", headers: responseHeaders(message.headers), url: url.href });
}

/** The body as undici gives it: decompressed per `content-encoding`. */
async function decoded(message: IncomingMessage): Promise<Readable> {
  const encoding = message.headers["content-encoding"]?.trim().toLowerCase();
  if (!encoding || encoding === "identity") return message;
  // Loaded only for a compressed body (most streaming APIs send none).
  const decoder = zlibDecoder(await import("node:zlib"), encoding);
  if (!decoder) return message;
  message.once("error", (error) => decoder.destroy(error));
  return message.pipe(decoder);
}

function zlibDecoder(zlib: typeof import("node:zlib"), encoding: string) {
  if (encoding === "gzip" || encoding === "x-gzip") return zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  if (encoding === "deflate") return zlib.createInflate({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  if (encoding === "br") return zlib.createBrotliDecompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH, finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
  return undefined;
}

function responseHeaders(source: IncomingHttpHeaders): FetchHeaders {
  const headers = new FetchHeaders();
  for (const [name, value] of Object.entries(source)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.append(name, value);
  }
  return headers;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}
