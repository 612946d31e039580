/**
 * The allow-listing proxy, in the agent process: HTTP CONNECT (https, any TCP) and absolute-form
 * HTTP requests, to allowed hosts only; anything else gets a 403 whose body says why, before any
 * name is resolved. Sandboxed commands reach it through the forwarder (Linux: a unix socket bound
 * into the sandbox; macOS: a loopback port the profile allows).
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { isHostAllowed, parseHostPattern, type HostPattern } from "./host-patterns.js";

export interface ProxyListen {
  /** A unix socket path (Linux). */
  socketPath?: string;
  /** Else a loopback TCP port (0 picks one). */
  port?: number;
}

export interface RunningProxy {
  /** The socket path, or `http://127.0.0.1:<port>`. */
  readonly address: string;
  readonly port: number | undefined;
  close(): Promise<void>;
}

/** Headers that belong to one hop, never forwarded. */
const HOP_HEADERS = new Set(["connection", "keep-alive", "proxy-connection", "proxy-authorization", "proxy-authenticate", "te", "trailer", "transfer-encoding", "upgrade"]);

export async function startProxy(allowed: readonly string[], listen: ProxyListen): Promise<RunningProxy> {
  const [http, net] = await Promise.all([import("node:http"), import("node:net")]);
  const patterns = allowed.map(parseHostPattern);
  const refusal = (host: string) => `blocked by the sandbox: network access to ${host} is not allowed (allowed: ${allowed.join(", ") || "none"})\n`;
  const sockets = new Set<Socket>();
  const server: Server = http.createServer((request, response) => forward(http, patterns, refusal, request, response));
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.on("connect", (request: IncomingMessage, client: Socket, head: Buffer) => {
    const target = parseAuthority(request.url ?? "");
    client.on("error", () => client.destroy());
    if (!target || !isHostAllowed(patterns, target.host, target.port)) {
      client.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${refusal(String(request.url))}`);
      return;
    }
    let connected = false;
    const upstream = net.connect(target.port, target.host.replace(/^\[|\]$/g, ""), () => {
      connected = true;
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on("close", () => sockets.delete(upstream));
    upstream.on("error", (error) => {
      if (!connected) client.end(`HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${error.message}\n`);
      else client.destroy();
    });
    client.on("close", () => upstream.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    if (listen.socketPath) server.listen(listen.socketPath, resolve);
    else server.listen(listen.port ?? 0, "127.0.0.1", resolve);
  });
  const bound = server.address();
  const port = typeof bound === "object" && bound ? bound.port : undefined;
  return {
    address: listen.socketPath ?? `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function forward(http: typeof import("node:http"), patterns: HostPattern[], refusal: (host: string) => string, request: IncomingMessage, response: ServerResponse): void {
  let url: URL;
  try {
    url = new URL(request.url ?? "");
  } catch {
    response.writeHead(400, { "content-type": "text/plain" }).end("This is a proxy: send absolute URLs (http://host/path) or CONNECT host:port\n");
    return;
  }
  const port = Number(url.port || 80);
  if (url.protocol !== "http:" || !isHostAllowed(patterns, url.hostname, port)) {
    response.writeHead(403, { "content-type": "text/plain" }).end(refusal(url.host));
    return;
  }
  const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !HOP_HEADERS.has(name)));
  const upstream = http.request({ host: url.hostname.replace(/^\[|\]$/g, ""), port, method: request.method, path: `${url.pathname}${url.search}`, headers }, (reply) => {
    response.writeHead(reply.statusCode ?? 502, Object.fromEntries(Object.entries(reply.headers).filter(([name]) => !HOP_HEADERS.has(name))));
    reply.pipe(response);
  });
  upstream.on("error", (error) => {
    if (!response.headersSent) response.writeHead(502, { "content-type": "text/plain" });
    response.end(`${error.message}\n`);
  });
  request.pipe(upstream);
}

/** `host:port` of a CONNECT request (`[v6]:port` too). */
function parseAuthority(authority: string): { host: string; port: number } | undefined {
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(authority);
  return match ? { host: match[1]!, port: Number(match[2]) } : undefined;
}
