/** One managed server's record, and how `get_mcp_servers` reports it. */
import type { McpExposure, McpServerStatus } from "./api.js";
import { exposuresOf, toolExposureOf, type ServerEntry } from "./config.js";
import type { McpConnection } from "./connection.js";
import type { AgentTools } from "./tool-registry.js";

export interface ManagedServer {
  entry: ServerEntry;
  /** Absent while disabled. */
  connection?: McpConnection;
  /** Lets go of the connection (shared with other agents of the process: the last one closes it). */
  release?: () => Promise<void>;
  /** Server tool name -> the name the model calls it by. */
  names: Map<string, string>;
  /** Deferred tools `tool_search` loaded (server tool names). */
  loaded: Set<string>;
  /** Direct tools past the caps of `mcp.directTools` (server tool names): reached as deferred ones are. */
  capped: Set<string>;
  /** What the user was told about it once (its tools capped, its listing cut). */
  noted: Set<"capped" | "listCut">;
  /** A prompt already waited for its first connection. */
  waited: boolean;
  /** Its first connection attempt has settled. */
  settled: boolean;
}

/** How the model reaches a tool: its configured exposure, or `deferred` for a direct tool past the caps. */
export function effectiveExposure(server: ManagedServer, tool: string): McpExposure {
  const exposure = toolExposureOf(server.entry.config, tool);
  return exposure === "direct" && server.capped.has(tool) ? "deferred" : exposure;
}

/** Whether some of its tools are (or may be, before it connects) reached through tool_search. */
export function reachedBySearch(server: ManagedServer): boolean {
  return server.capped.size > 0 || exposuresOf(server.entry.config).has("deferred");
}

export function serverStatus(server: ManagedServer, tools: AgentTools): McpServerStatus {
  const { entry, connection } = server;
  const { config } = entry;
  const instructions = connection?.instructions?.trim().split("\n", 1)[0];
  return {
    name: entry.name,
    source: entry.source,
    ...(entry.origin ? { origin: entry.origin } : {}),
    transport: connection?.transport ?? config.type,
    enabled: config.enabled,
    state: connection ? connection.state : "disabled",
    ...(connection?.error ? { error: connection.error } : {}),
    exposure: config.exposure ?? "direct",
    ...(config.description ? { description: config.description } : {}),
    ...(instructions ? { instructions } : {}),
    resources: connection?.hasResources ?? false,
    tools: (connection?.tools ?? []).map((tool) => {
      const toolName = server.names.get(tool.name) ?? "";
      return {
        name: tool.name,
        toolName,
        ...(tool.description ? { description: tool.description.trim().split("\n", 1)[0]! } : {}),
        exposure: effectiveExposure(server, tool.name),
        ...(server.capped.has(tool.name) ? { capped: true } : {}),
        loaded: effectiveExposure(server, tool.name) === "direct" ? tools.isRegistered(toolName) : server.loaded.has(tool.name),
      };
    }),
  };
}
