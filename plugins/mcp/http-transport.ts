/**
 * Remote servers: streamable HTTP first, and the older HTTP+SSE transport when the server turns
 * the streamable POST away (400, 404, 405: what the MCP specification's compatibility note says to look
 * for), or at once for `"type": "sse"`. Headers (a bearer token from an environment variable)
 * go with every request. OAuth sign-in is not supported: a 401 says so and how to send a token.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { HttpLaunch } from "./resolve.js";

const FALLBACK_STATUSES = new Set([400, 404, 405]);

/** The SDK's error class for an HTTP status, once its module is loaded (the bundle renames classes). */
let httpError: (new (...args: never[]) => Error & { code?: number }) | undefined;

/** Streamable HTTP's answer to a request in a session the server no longer has. */
export function isSessionGone(error: unknown): boolean {
  return httpError !== undefined && error instanceof httpError && error.code === 404;
}

export const OAUTH_MESSAGE =
  'OAuth sign-in is not supported by Atomic; give the server a token in "headers" (e.g. "Authorization": "Bearer ${TOKEN}", or `atomic mcp add <name> --url <url> --bearer-token-env-var TOKEN`)';

export async function connectHttp(
  launch: HttpLaunch,
  makeClient: () => Client,
  onTransport: (transport: Transport) => void,
  start: (client: Client, transport: Transport) => Promise<void>,
): Promise<{ client: Client; transport: "http" | "sse" }> {
  const url = new URL(launch.url);
  const requestInit = { headers: launch.headers };
  const sse = async () => {
    const { SSEClientTransport } = await import("@modelcontextprotocol/sdk/client/sse.js");
    const client = makeClient();
    const transport = new SSEClientTransport(url, { requestInit });
    onTransport(transport);
    try {
      await start(client, transport);
    } catch (error) {
      throw unreachable(error, url);
    }
    return { client, transport: "sse" as const };
  };
  if (launch.type === "sse") return sse();
  const { StreamableHTTPClientTransport, StreamableHTTPError } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  httpError = StreamableHTTPError;
  const client = makeClient();
  const transport = new StreamableHTTPClientTransport(url, { requestInit });
  onTransport(transport);
  try {
    await start(client, transport);
    return { client, transport: "http" };
  } catch (error) {
    if (!(error instanceof StreamableHTTPError) || !FALLBACK_STATUSES.has(error.code ?? 0)) throw unreachable(error, url);
    await client.close().catch(() => undefined);
    try {
      return await sse();
    } catch (fallback) {
      throw new Error(`streamable HTTP answered ${error.code}, and the SSE transport failed too: ${describeConnectError(fallback, 0)}`);
    }
  }
}

/**
 * A request that never reached the server (refused, no such host, a port fetch will not use) as
 * an error naming the address and the cause: fetch's own message is only `fetch failed`, the
 * cause (`connect ECONNREFUSED 127.0.0.1:9`) is in `error.cause`, and the SSE transport puts
 * it in its message. Other errors are returned as they are.
 */
function unreachable(error: unknown, url: URL): unknown {
  const cause = (error as { cause?: unknown }).cause;
  const why =
    error instanceof TypeError && cause instanceof Error
      ? cause.message
      : error instanceof Error
        ? /^SSE error: TypeError: fetch failed: (.+)$/.exec(error.message)?.[1]
        : undefined;
  if (!why) return error;
  // Node's fetch refuses the ports browsers block (9, 25, 6000, ...) before connecting.
  const detail = why === "bad port" ? "bad port: fetch refuses to connect to this port; serve the MCP server on another one" : why;
  return new Error(`cannot reach ${url.href} (${detail})`, { cause: error });
}

/** Why a connection could not be made, in a sentence; `timeoutMs` is the initialize timeout. */
export function describeConnectError(error: unknown, timeoutMs: number): string {
  const status = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  // 401 from either transport (the SDK's auth error needs an auth provider, which Atomic never gives).
  if (status === 401 || /\b401\b|Unauthorized/.test(message)) return `the server answered 401 Unauthorized: ${OAUTH_MESSAGE}`;
  if (status === -32001) return `the server did not finish connecting (initialize, tools/list) within ${Math.round(timeoutMs / 100) / 10} s (settings mcp.connectTimeout)`;
  if (status === -32000) return "the server closed the connection before it answered initialize";
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === "string") return `cannot reach the server (${cause.code}${typeof cause.message === "string" && cause.message ? `: ${cause.message}` : ""})`;
  return message.replace(/^MCP error -?\d+: /, "");
}
