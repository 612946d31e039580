/** The hook the mcp plugin declares and calls. */
import { AsyncSeriesHook } from "tapable";
import { notify, type DeclaredHooks } from "../../kernel/index.js";
import type { RegisteredMcpServer } from "./api.js";

export function mcpHookDeclarations() {
  return {
    mcp_servers_change: notify(
      new AsyncSeriesHook<[{ servers: RegisteredMcpServer[] }]>(["event"]),
      "An extension registered or removed an MCP server after startup: every registered server after the change.",
    ),
  };
}

export type McpHooks = DeclaredHooks<ReturnType<typeof mcpHookDeclarations>>;
