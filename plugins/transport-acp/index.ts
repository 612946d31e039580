/**
 * Plugin `transport-acp`: the Agent Client Protocol over stdio, so editors such as Zed drive
 * Atomic (`--mode acp`, or settings `"mode": "acp"`). Each ACP session runs on its own sibling
 * host; the connection maps ACP requests to Atomic's commands and its events to session
 * updates. The ACP SDK is loaded only when this mode serves.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { definePlugin } from "../../kernel/index.js";
import type {} from "../mcp/api.js";

export default definePlugin({
  name: "transport-acp",
  description: "The Agent Client Protocol (JSON-RPC over stdio) for editors.",
  apply(k) {
    k.registerTransport({
      name: "acp",
      description: "Agent Client Protocol on stdin/stdout (editors such as Zed); several sessions per process.",
      // confirm and select become session/request_permission.
      dialogs: true,
      async serve(host) {
        // This host only lists sessions: each session's sibling runs its own MCP servers.
        k.maybeService("mcp")?.hold();
        const { serveAcp } = await import("./serve.js");
        return serveAcp(host, await versionOf(k.config.installDir));
      },
    });
  },
});

async function versionOf(installDir: string | undefined): Promise<string> {
  if (!installDir) return "0.0.0";
  try {
    return (JSON.parse(await readFile(join(installDir, "package.json"), "utf8")) as { version: string }).version;
  } catch {
    return "0.0.0";
  }
}
