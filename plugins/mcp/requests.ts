/** Small pieces of the requests a connection makes: their signal, the tool listing, network failures. */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";

/** A request that never reached an HTTP server (it is down, or restarting). */
export function isUnreachable(error: unknown): boolean {
  const code = (error as { cause?: { code?: unknown } })?.cause?.code;
  return code === "ECONNREFUSED" || code === "ECONNRESET" || code === "EHOSTUNREACH" || code === "ENOTFOUND";
}

/**
 * A signal of one request, aborted with the run's. The SDK adds an abort listener to the signal
 * of every request and never removes it: handed the run's signal, a run of a thousand calls
 * would keep a thousand listeners.
 */
export function callSignal(parent: AbortSignal): { signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, done: () => undefined };
  }
  const onAbort = () => controller.abort(parent.reason);
  parent.addEventListener("abort", onAbort, { once: true });
  return { signal: controller.signal, done: () => parent.removeEventListener("abort", onAbort) };
}

/** Tools kept of one server: past this, its listing is not read on (memory stays bounded; docs/mcp.md). */
export const MAX_LISTED_TOOLS = 20_000;

/** Every page of the server's tools, up to MAX_LISTED_TOOLS (`cut`: it listed more). */
export async function listAllTools(client: Client, timeout: number): Promise<{ tools: Tool[]; cut: boolean }> {
  if (!client.getServerCapabilities()?.tools) return { tools: [], cut: false };
  const tools: Tool[] = [];
  let cursor: string | undefined;
  // A server that keeps handing out cursors would loop forever: 100 pages is more than any real one.
  for (let page = 0; page < 100; page++) {
    const result = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout });
    for (const tool of result.tools) tools.push(tool);
    cursor = result.nextCursor;
    if (tools.length >= MAX_LISTED_TOOLS) return { tools: tools.slice(0, MAX_LISTED_TOOLS), cut: tools.length > MAX_LISTED_TOOLS || cursor !== undefined };
    if (!cursor) break;
  }
  return { tools, cut: cursor !== undefined };
}
