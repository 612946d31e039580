/**
 * A loopback streamable-HTTP MCP server for the tests (127.0.0.1, a free port, path /mcp): the
 * probe's tools (test/fixtures/mcp/probe-tools.mjs) on the official SDK's server transport, one
 * session per client. With `token`, a request without `Authorization: Bearer <token>` gets 401.
 * Every request's Authorization header is recorded.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { buildProbeServer } from "../fixtures/mcp/probe-tools.mjs";
import { registerStopper } from "./temp.js";

export interface HttpProbe {
  url: string;
  authorizations: (string | undefined)[];
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

async function body(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text === "" ? undefined : JSON.parse(text);
}

export async function startHttpProbe(options: { token?: string } = {}): Promise<HttpProbe> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const authorizations: (string | undefined)[] = [];
  const server: Server = createServer(async (request, response) => {
    authorizations.push(request.headers.authorization);
    if (!request.url?.startsWith("/mcp")) return void response.writeHead(404).end("not here");
    if (options.token && request.headers.authorization !== `Bearer ${options.token}`) return void response.writeHead(401, { "content-type": "text/plain" }).end("unauthorized");
    try {
      const parsed = request.method === "POST" ? await body(request) : undefined;
      const id = request.headers["mcp-session-id"];
      let transport = typeof id === "string" ? sessions.get(id) : undefined;
      if (!transport && request.method === "POST" && isInitializeRequest(parsed)) {
        transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport!) });
        await buildProbeServer("http-probe").connect(transport);
      }
      // What MCP asks of a server for a session it does not know: 404, so the client starts a new one.
      if (!transport)
        return void response.writeHead(typeof id === "string" ? 404 : 400).end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "no such session" }, id: null }));
      await transport.handleRequest(request, response, parsed);
    } catch (error) {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  let listening = true;
  const down = async () => {
    if (!listening) return;
    listening = false;
    for (const transport of sessions.values()) await transport.close().catch(() => undefined);
    sessions.clear();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  const unregister = registerStopper(down);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    authorizations,
    down,
    up: async () => {
      await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
      listening = true;
    },
    close: async () => {
      unregister();
      await down();
    },
  };
}
