/**
 * ACP's `mcpServers` (in `session/new` and `session/load`) as `mcpServers` entries of mcp.json,
 * for the session's host to connect (`add_mcp_servers`): stdio servers with their command,
 * arguments and environment, HTTP and SSE servers with their URL and headers. ACP allows any
 * server name; tool names need letters, digits, `_` and `-`, so others become `_`.
 */

/** An ACP `McpServer` as the SDK parses it. */
export type AcpMcpServer =
  | { type: "http" | "sse"; name: string; url: string; headers: { name: string; value: string }[] }
  | { type?: undefined; name: string; command: string; args: string[]; env: { name: string; value: string }[] };

export function mcpEntries(servers: readonly AcpMcpServer[]): Record<string, unknown> {
  const entries: Record<string, unknown> = {};
  servers.forEach((server, index) => {
    let name = server.name.replace(/[^A-Za-z0-9_-]/g, "_") || `server_${index + 1}`;
    while (name in entries) name = `${name}_${index + 1}`;
    entries[name] =
      "url" in server && server.type !== undefined
        ? { type: server.type, url: server.url, headers: Object.fromEntries(server.headers.map((header) => [header.name, header.value])) }
        : { command: server.command, args: server.args, env: Object.fromEntries(server.env.map((variable) => [variable.name, variable.value])) };
  });
  return entries;
}
