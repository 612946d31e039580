/**
 * pi 1.6's built-in `/mcp` and `/llama` commands, as pi runs them without a terminal: `/mcp`
 * reports every server's state, `/mcp login|logout|reconnect <server>` name a server, and
 * `/llama` (a terminal screen in pi) says where it is available. An extension that registers
 * `/mcp` (pi-mcp-adapter) takes the name over, as in pi.
 */
import { join } from "node:path";
import type { PluginContext } from "../../kernel/index.js";
import type { DialogsApi } from "../extensions/api.js";
import type { SlashCommandEntry, SlashCommandProvider } from "../slash-commands/api.js";
import type { McpServerStatus, McpStatus } from "./api.js";

export const MCP_USAGE = "Usage: /mcp, /mcp login [server], /mcp logout [server], /mcp reconnect [server]";
const BUILTIN = { source: "builtin", scope: "temporary", origin: "top-level" } as const;

const ENTRIES: SlashCommandEntry[] = [
  {
    name: "llama",
    description: "Manage llama.cpp router models",
    source: "extension",
    sourceInfo: { path: "builtin:llama.cpp", ...BUILTIN },
  },
  {
    name: "mcp",
    description: "Manage MCP servers: sign in, reconnect, enable or disable, and change exposure",
    source: "extension",
    sourceInfo: { path: "builtin:mcp", ...BUILTIN },
  },
];

type Notify = DialogsApi["notify"];

/** The provider for the slash-command registry; `status` is the mcp service's. */
export function builtinCommands(k: PluginContext, status: () => Promise<McpStatus>): SlashCommandProvider {
  const notify: Notify = (message, type) => {
    const dialogs = k.maybeService("dialogs");
    if (dialogs) dialogs.notify(message, type);
    else k.log[type === "error" ? "error" : type === "warning" ? "warn" : "info"](message);
  };
  return {
    owner: k.name,
    source: "extension",
    builtin: true,
    entries: () => ENTRIES,
    async invoke({ entry, args }) {
      if (entry.name === "llama") {
        notify("/llama is available in pi's interactive mode only: Atomic has no terminal screen (get_available_models lists a llama.cpp server's models)", "warning");
      } else {
        await runMcp(args, await status(), k.config.agentDir, notify);
      }
      return { handled: true };
    },
  };
}

async function runMcp(args: string, current: McpStatus, agentDir: string, notify: Notify): Promise<void> {
  const [action, name, ...extra] = args.trim().split(/\s+/).filter(Boolean);
  if (action === undefined) return notify(formatStatus(current, agentDir), "info");
  if (extra.length > 0 || !["login", "logout", "reconnect"].includes(action)) return notify(MCP_USAGE, "warning");
  if (name !== undefined && !current.servers.some((server) => server.name === name)) return notify(`No MCP server named "${name}".`, "error");
  if (action === "reconnect") {
    return notify("/mcp reconnect is not available in Atomic: a server that dropped is reconnected on its next tool call, and the reload command restarts every server.", "error");
  }
  notify(`/mcp ${action}: Atomic does not sign in to MCP servers; give an HTTP server a token in mcp.json ("headers": {"Authorization": "Bearer \${TOKEN}"}).`, "error");
}

/** pi's wording: a line per server, then the configuration problems. */
export function formatStatus(current: McpStatus, agentDir: string): string {
  if (current.servers.length === 0 && current.errors.length === 0) {
    return `No MCP servers configured. Add them to ${join(agentDir, "mcp.json")} or .atomic/mcp.json.`;
  }
  const lines = current.servers.map((server) => {
    const tools = server.state === "connected" ? `, ${server.tools.length} tools` : "";
    const error = server.error && server.state !== "connected" ? `\n    ${server.error.split("\n").join("\n    ")}` : "";
    return `${server.name}: ${stateOf(server)}${tools} (${server.exposure})${error}`;
  });
  for (const error of current.errors) lines.push(`config error: ${error}`);
  return lines.join("\n");
}

function stateOf(server: McpServerStatus): string {
  if (!server.enabled || server.state === "disabled") return "disabled";
  if (server.state === "disconnected") return "disconnected, reconnects on next call";
  return server.state === "pending" ? "starting" : server.state;
}
