/**
 * Listener `ws://HOST:PORT` (docs/decisions.md, Server mode: Security and Limits): one HTTP server that answers
 * `GET /healthz` and `GET /readyz` (no token), the web page at `/` with `--web`, and WebSocket
 * upgrades at `/`. Every request passes the guard first (no token in the URL, a loopback Host, an
 * allowed Origin); an upgrade then needs the bearer token, compared in constant time, and a free
 * connection slot, all before the handshake: a refusal is a plain HTTP answer (400, 401, 403,
 * 503) and no WebSocket ever exists for it. Accepted sockets are pinged every `keepaliveMs`; one
 * that has not answered by the next ping is dropped.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocket, WebSocketServer } from "ws";
import { ErrorCode, KernelError } from "../../kernel/index.js";
import { MAX_LINE_BYTES } from "../../lib/jsonl/index.js";
import { checkBearer, checkRequest, type GuardPolicy, type RequestHead } from "./http-guard.js";
import type { Admission, Listener, Wire } from "./listener.js";
import { loadToken, tokenPath } from "./token.js";
import { WebFiles, webRoot } from "./web-static.js";
import { localHttpUrl, parseWsUrl, type WsAddress, wsUrl } from "./ws-url.js";
import { WsWire } from "./ws-wire.js";

export interface WsListenerOptions {
  agentDir: string;
  allowRemote: boolean;
  allowOrigins: readonly string[];
  keepaliveMs: number;
  /** Serve the web page (`--web`) from the package at this folder. */
  web: boolean;
  installDir: string | undefined;
}

const OVERSIZED_REASON = `frame over the line limit (${MAX_LINE_BYTES} bytes)`;

/** ws closes an oversized frame with 1009 and no reason: the reason says which limit. */
class AtomicSocket extends WebSocket {
  override close(code?: number, reason?: string | Buffer): void {
    super.close(code, code === 1009 && reason === undefined ? OVERSIZED_REASON : reason);
  }
}

const STATUS_TEXT: Record<number, string> = { 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 503: "Service Unavailable" };

export class WsListener implements Listener {
  readonly #address: WsAddress;
  readonly #options: WsListenerOptions;
  #port: number;
  #http: Server | undefined;
  #sockets: WebSocketServer | undefined;
  #policy: GuardPolicy | undefined;
  #web: WebFiles | undefined;
  #admission: Admission | undefined;
  readonly #wires = new Set<WsWire>();
  #keepalive: NodeJS.Timeout | undefined;

  constructor(url: string, options: WsListenerOptions) {
    this.#address = parseWsUrl(url, options.allowRemote);
    this.#options = options;
    this.#port = this.#address.port;
  }

  /** With the port it got once listening (port 0 picks one). */
  get url(): string {
    return wsUrl(this.#address.host, this.#port);
  }

  async start(accept: (wire: Wire) => void, admission?: Admission): Promise<void> {
    const options = this.#options;
    const token = await loadToken(tokenPath(options.agentDir));
    this.#policy = { token, allowRemote: options.allowRemote, allowOrigins: options.allowOrigins };
    this.#admission = admission;
    if (options.web) this.#web = await WebFiles.load(webRoot(options.installDir));
    this.#sockets = new WebSocketServer({
      noServer: true,
      clientTracking: false,
      perMessageDeflate: false,
      maxPayload: MAX_LINE_BYTES,
      WebSocket: AtomicSocket,
      // The bearer subprotocol was checked before the upgrade; echoing it is what a browser expects.
      handleProtocols: (protocols) => [...protocols].find((protocol) => protocol.startsWith("atomic.bearer.")) ?? false,
    });
    const http = createServer((request, response) => this.#request(request, response));
    // A request that never completes (a slow or idle client) cannot hold a socket for long.
    http.headersTimeout = 10_000;
    http.requestTimeout = 30_000;
    http.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => this.#upgrade(request, socket, head, accept));
    http.on("clientError", (_error, socket: Duplex) => {
      if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      socket.destroy();
    });
    await new Promise<void>((resolve, reject) => {
      http.once("error", (error: NodeJS.ErrnoException) => reject(listenError(this.url, error)));
      http.listen(this.#address.port, this.#address.host, () => resolve());
    });
    const bound = http.address();
    if (bound && typeof bound === "object") this.#port = bound.port;
    this.#http = http;
    this.#keepalive = setInterval(() => this.#ping(), options.keepaliveMs);
    this.#keepalive.unref();
    if (this.#web) process.stderr.write(`${JSON.stringify({ web: `${localHttpUrl(this.#address.host, this.#port)}#token=${token}` })}\n`);
  }

  async close(): Promise<void> {
    const http = this.#http;
    if (!http) return;
    this.#http = undefined;
    clearInterval(this.#keepalive);
    for (const wire of this.#wires) wire.terminate();
    const closed = new Promise<void>((resolve) => http.close(() => resolve()));
    http.closeAllConnections();
    await closed;
  }

  #ping(): void {
    for (const wire of this.#wires) {
      if (!wire.alive) {
        wire.terminate();
        continue;
      }
      wire.alive = false;
      wire.ping();
    }
  }

  #request(request: IncomingMessage, response: ServerResponse): void {
    const refusal = checkRequest(headOf(request), this.#policy!);
    if (refusal) return answer(response, refusal.status, refusal.message);
    const path = (request.url ?? "/").split("?")[0]!;
    const method = request.method ?? "GET";
    if (method !== "GET" && method !== "HEAD") {
      response.writeHead(405, { Allow: "GET, HEAD", "Content-Type": "application/json" });
      return void response.end(JSON.stringify({ error: `${method} is not served here` }));
    }
    if (path === "/healthz") return answer(response, 200, "up");
    // The token check alone: a browser cannot read why its WebSocket was refused, the page asks here.
    if (path === "/auth") {
      const bearer = checkBearer(headOf(request), this.#policy!.token);
      return "status" in bearer ? answer(response, bearer.status, bearer.message) : answer(response, 200, "token accepted");
    }
    if (path === "/readyz") {
      const shuttingDown = this.#admission?.refusal() === "shutting_down";
      return answer(response, shuttingDown ? 503 : 200, shuttingDown ? "shutting down" : "ready");
    }
    if (this.#web?.answer(path, method, request.headers.host ?? "", response)) return;
    answer(response, 404, this.#web ? `Not found: ${path}` : `Not found: ${path} (the web page is served with --web)`);
  }

  #upgrade(request: IncomingMessage, socket: Duplex, head: Buffer, accept: (wire: Wire) => void): void {
    socket.on("error", () => socket.destroy());
    const requestHead = headOf(request);
    const refusal = checkRequest(requestHead, this.#policy!);
    if (refusal) return refuse(socket, refusal.status, refusal.message);
    if ((request.url ?? "/").split("?")[0] !== "/") return refuse(socket, 404, `Not found: WebSocket connections go to /`);
    const bearer = checkBearer(requestHead, this.#policy!.token);
    if ("status" in bearer) return refuse(socket, bearer.status, bearer.message);
    const refused = this.#admission?.refusal();
    if (refused === "shutting_down") return refuse(socket, 503, "The server is shutting down");
    if (refused === "full") return refuse(socket, 503, "The server has maxConnections connections: try again later");
    this.#sockets!.handleUpgrade(request, socket, head, (ws) => {
      const wire = new WsWire({ listener: this.url, ...(request.socket.remoteAddress ? { address: request.socket.remoteAddress } : {}) }, ws, socket, () =>
        this.#wires.delete(wire),
      );
      this.#wires.add(wire);
      accept(wire);
    });
  }
}

function headOf(request: IncomingMessage): RequestHead {
  const header = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(", ") : value;
  };
  return { url: request.url ?? "/", host: header("host"), origin: header("origin"), authorization: header("authorization"), protocols: header("sec-websocket-protocol") };
}

function answer(response: ServerResponse, status: number, message: string): void {
  const body = JSON.stringify(status < 400 ? { status: message } : { error: message });
  response.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
    ...(status === 401 ? { "WWW-Authenticate": "Bearer" } : {}),
  });
  response.end(body);
}

/** A refused upgrade: a plain HTTP answer on the raw socket, which is then closed. */
function refuse(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify({ error: message });
  const extra = status === 401 ? "WWW-Authenticate: Bearer\r\n" : status === 503 ? "Retry-After: 1\r\n" : "";
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`,
    () => socket.destroy(),
  );
}

function listenError(url: string, error: NodeJS.ErrnoException): KernelError {
  if (error.code === "EADDRINUSE") return new KernelError(ErrorCode.CONFLICT, `Cannot listen on ${url}: the port is in use`);
  if (error.code === "EADDRNOTAVAIL") return new KernelError(ErrorCode.UNAVAILABLE, `Cannot listen on ${url}: no interface of this machine has that address`);
  return new KernelError(ErrorCode.UNAVAILABLE, `Cannot listen on ${url}: ${error.message}`);
}
