/**
 * pi's MCP server registration for extensions: `registerMcpServer`, `unregisterMcpServer`,
 * `getMcpServers` and the `mcp_servers_change` event, over the mcp plugin's service (its
 * api.ts). Without that plugin (`plugins` setting without it), registering throws and says why.
 */
import type { HookCatalog, PluginContext, TapOnly } from "../../kernel/index.js";
import type { McpApi } from "../mcp/api.js";
import type { ExtensionRecord } from "./record.js";
import type { ExtensionAPI } from "./types/api.js";

type McpServerApi = Pick<ExtensionAPI, "registerMcpServer" | "unregisterMcpServer" | "getMcpServers">;

export function mcpServerApi(k: PluginContext, record: ExtensionRecord): McpServerApi {
  const service = (): McpApi => {
    const mcp = k.maybeService("mcp");
    if (!mcp) throw new Error("MCP servers are not available: the mcp plugin is not loaded");
    return mcp;
  };
  return {
    registerMcpServer(name, config) {
      if (typeof name !== "string" || name === "") throw new TypeError("registerMcpServer: the name must be a non-empty string");
      const mcp = service();
      // Invalid now, while the extension can see it; registered with its other registrations.
      mcp.checkServer(name, config, record.path);
      const copy = structuredClone(config);
      record.apply(() => mcp.registerServer(name, copy, record.path));
    },
    unregisterMcpServer(name) {
      k.maybeService("mcp")?.unregisterServer(String(name), record.path);
    },
    getMcpServers: () => k.maybeService("mcp")?.registeredServers() ?? [],
  };
}

/** `pi.on("mcp_servers_change")`: a notification, when the mcp plugin (which owns the hook) is loaded. */
export function mcpServersChange(site: { hooks: TapOnly<HookCatalog>; tap: { name: string; order: "pre" }; call: (event: object) => Promise<unknown> }): void {
  if (!("mcp_servers_change" in site.hooks)) return;
  site.hooks.mcp_servers_change.tapPromise(site.tap, async ({ servers }) => void (await site.call({ type: "mcp_servers_change", servers })));
}
