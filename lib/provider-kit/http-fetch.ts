/**
 * The `fetch` the frame gives every provider SDK, carried by node:http and node:https. Node 20's
 * global fetch (undici) costs a fresh process its first-use load (see fetch-headers.ts), then
 * compiles its WebAssembly HTTP parser on the first request and holds ~30 MB more at the peak of
 * a long stream; node's native parser costs neither. The environment's proxy (HTTPS_PROXY, ...,
 * NO_PROXY: see proxy.ts) is honoured, for a redirect too: one is followed here (see
 * http-redirect.ts). The response is a `FetchResponse` (the standard interface, no undici), its
 * body decoded and bounded (http-body.ts). What this does not carry itself goes to the global
 * fetch unchanged, and without the proxy: a `Request` object, a body other than a string or
 * bytes, another protocol. No provider SDK sends those.
 *
 * Connections are kept between requests as long as the server says it keeps them (its
 * `Keep-Alive: timeout=N`), else a minute: an agent's tool steps often take longer than
 * undici's 4 s, and each new connection costs a TLS handshake. A request whose reused
 * connection turns out closed before any answer is sent once more on a new one.
 */
import type { Agent, AgentOptions, ClientRequest, IncomingHttpHeaders, IncomingMessage, RequestOptions } from "node:http";
import type { Socket } from "node:net";
import type { Readable } from "node:stream";
import { connectionError } from "./connection-error.js";
import { FetchHeaders } from "./fetch-headers.js";
import { FetchResponse } from "./fetch-response.js";
import { boundedBody } from "./http-body.js";
import { REDIRECT_STATUSES, redirectHop, refused, type Hop } from "./http-redirect.js";
import { proxyRefusal, proxyRouteFor, type ProxyRoute } from "./proxy.js";
import type { ProviderHttpOptions } from "./types.js";

/** Statuses whose response carries no body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
/** undici's headers and body timeouts: the default bound on a silent connection (settings: `httpIdleTimeoutMs`). */
export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;
/** How long an idle connection is kept when the server gives no `Keep-Alive` hint. */
export const KEEP_IDLE_MS = 60_000;
/** The longest a server's hint keeps one (undici's `keepAliveMaxTimeout`). */
export const KEEP_IDLE_MAX_MS = 600_000;

export type HttpFetchOptions = ProviderHttpOptions;

interface Transport {
  request(url: URL, options: RequestOptions, callback: (response: IncomingMessage) => void): ClientRequest;
  agent: Agent;
}

const transports = new Map<string, Promise<Transport>>();
/** The `Keep-Alive: timeout` (seconds) of the last response on each socket. */
const keepAliveHints = new WeakMap<Socket, number>();

/** Keep-alive agents, loaded per protocol on first use. */
function transportFor(protocol: string): Promise<Transport> {
  let transport = transports.get(protocol);
  if (!transport) {
    transport = (protocol === "https:" ? import("node:https") : import("node:http")).then((module) => ({
      request: module.request,
      agent: keepingAgent(module.Agent, { keepAlive: true }),
    }));
    transports.set(protocol, transport);
  }
  return transport;
}

/**
 * Loads the transport a first request to `baseUrl` will use (node:http, or node:https with TLS:
 * ~3-10 ms of a fresh process), without connecting: for the idle moment after a model is chosen.
 */
export async function warmTransport(baseUrl: string): Promise<void> {
  const protocol = URL.canParse(baseUrl) ? new URL(baseUrl).protocol : undefined;
  if (protocol === "http:" || protocol === "https:") await transportFor(protocol);
}

function keepingAgent(Base: new (options: AgentOptions) => Agent, options: AgentOptions): Agent {
  // Node's own keepSocketAlive caps a server's hint at the agent's `timeout`, one value for all.
  class KeepingAgent extends Base {
    override keepSocketAlive(socket: Socket): boolean {
      socket.setKeepAlive(true, 1000);
      socket.unref();
      const hint = keepAliveHints.get(socket);
      // A second early, as Node does: the server may close it at the very moment it said.
      const idle = hint === undefined ? KEEP_IDLE_MS : Math.min(hint * 1000 - 1000, KEEP_IDLE_MAX_MS);
      if (idle <= 0) return false;
      socket.setTimeout(idle);
      return true;
    }
  }
  return new KeepingAgent(options);
}

export async function httpFetch(input: string | URL | Request, init: RequestInit = {}, options: HttpFetchOptions = {}): Promise<Response> {
  const url = typeof input === "string" ? new URL(input) : input instanceof URL ? input : undefined;
  const body = init.body;
  const carried = body === undefined || body === null || typeof body === "string" || body instanceof Uint8Array;
  if (!url || !carried || (url.protocol !== "http:" && url.protocol !== "https:")) return fetch(input, init);
  const signal = init.signal ?? undefined;
  signal?.throwIfAborted();
  const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  let hop: Hop = { url, method: init.method ?? "GET", headers: requestHeaders(init.headers, body), body };
  for (let followed = 0; ; followed++) {
    const response = await send(hop, signal, idleMs);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (!REDIRECT_STATUSES.has(status) || !location || init.redirect === "manual") return toResponse(response, hop.url, status, signal, idleMs, followed > 0);
    response.destroy();
    if (init.redirect === "error") throw refused(`${hop.url.host} answered with a redirect (${status})`, "the request asked for none");
    hop = redirectHop(hop, status, location, followed);
  }
}

/** The response to `hop`: through the proxy if the environment has one, once more on a new connection if a kept one was closed. */
async function send(hop: Hop, signal: AbortSignal | undefined, idleMs: number): Promise<IncomingMessage> {
  const { request, agent: direct } = await transportFor(hop.url.protocol);
  const route = await proxyRouteFor(hop.url);
  const agent = route?.agent ?? direct;
  for (let attempt = 0; ; attempt++) {
    try {
      return await exchange(request, agent, hop, route, signal, idleMs);
    } catch (error) {
      if (attempt > 0 || !(error as { staleConnection?: boolean }).staleConnection) throw error;
    }
  }
}

function exchange(request: Transport["request"], agent: Agent, hop: Hop, route: ProxyRoute | undefined, signal: AbortSignal | undefined, idleMs: number): Promise<IncomingMessage> {
  return new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(hop.url, { method: hop.method, headers: hop.headers, agent }, (response) => {
      const hint = /\btimeout=(\d+)/i.exec(String(response.headers["keep-alive"] ?? ""))?.[1];
      if (hint !== undefined) keepAliveHints.set(response.socket, Number(hint));
      else keepAliveHints.delete(response.socket);
      const status = response.statusCode ?? 0;
      const refusal = route && proxyRefusal(route, hop.url, status, response.statusMessage ?? "", response.socket);
      if (refusal) {
        response.destroy();
        reject(refusal);
      } else resolve(response);
    });
    const onAbort = () => req.destroy(abortReason(signal!) as Error);
    signal?.addEventListener("abort", onAbort, { once: true });
    req.once("close", () => signal?.removeEventListener("abort", onAbort));
    req.once("error", (error) => {
      if (signal?.aborted) return reject(abortReason(signal));
      const failure = connectionError(hop.url, error, route?.shown);
      // A kept connection the server closed while it sat idle: nothing reached the server.
      if (req.reusedSocket && isClosedConnection(error)) Object.assign(failure, { staleConnection: true });
      reject(failure);
    });
    // 0 also clears the idle timeout a kept connection was given while it sat in the pool.
    if (idleMs > 0) req.setTimeout(idleMs, () => req.destroy(idleError(idleMs)));
    else req.setTimeout(0);
    req.end(hop.body ?? undefined);
  });
}

function isClosedConnection(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ECONNRESET" || code === "EPIPE";
}

function idleError(idleMs: number): Error {
  return Object.assign(new Error(`no data from the server for ${idleMs / 1000} s, timed out (settings: httpIdleTimeoutMs)`), { code: "ETIMEDOUT" });
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

async function toResponse(message: IncomingMessage, url: URL, status: number, signal: AbortSignal | undefined, idleMs: number, redirected: boolean): Promise<FetchResponse> {
  const onAbort = () => message.destroy(abortReason(signal!) as Error);
  signal?.addEventListener("abort", onAbort, { once: true });
  message.once("close", () => signal?.removeEventListener("abort", onAbort));
  if (idleMs > 0) message.setTimeout(idleMs, () => message.destroy(connectionError(url, idleError(idleMs))));
  let body: Readable | null = null;
  if (NULL_BODY.has(status)) message.resume();
  else body = await boundedBody(message, url, status);
  return new FetchResponse(body, { status, statusText: message.statusMessage ?? "", headers: responseHeaders(message.headers), url: url.href, redirected });
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
