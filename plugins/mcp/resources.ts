/**
 * Resources through tools, under the names Codex and pi use: `list_mcp_resources` and
 * `list_mcp_resource_templates` (JSON: `{resources: [{server, uri, name, ...}], nextCursor?}`,
 * one page of one server, or every page of every server), and `read_mcp_resource` (text as
 * text, images as images, cut like other results).
 */
import type { ToolDefinition, ToolResult } from "../../kernel/index.js";
import type { McpConnection } from "./connection.js";
import { toToolResult } from "./results.js";

export const LIST_RESOURCES = "list_mcp_resources";
export const LIST_TEMPLATES = "list_mcp_resource_templates";
export const READ_RESOURCE = "read_mcp_resource";
export const RESOURCE_TOOLS = [LIST_RESOURCES, LIST_TEMPLATES, READ_RESOURCE] as const;

/** Pages read per server when listing every server. */
const MAX_PAGES = 20;

export interface ResourceHost {
  /** Connected (or connecting) servers that offer resources. */
  servers(): { name: string; connection: McpConnection }[];
  ready(signal: AbortSignal): Promise<void>;
  saveFullText(text: string): Promise<string>;
}

const serverProperty = { type: "string", description: "The MCP server's name." };

export function resourceTools(host: ResourceHost): ToolDefinition[] {
  return [
    listTool(
      host,
      LIST_RESOURCES,
      "resources",
      "Lists the resources (files, documents, records) MCP servers offer, as JSON with each resource's server and uri; read one with read_mcp_resource. Without `server`, every server's; with it, one page of that server's (`cursor` continues).",
    ),
    listTool(
      host,
      LIST_TEMPLATES,
      "resourceTemplates",
      "Lists the URI templates of resources MCP servers can produce (resources they do not list one by one), as JSON. Fill a template in and read it with read_mcp_resource.",
    ),
    {
      name: READ_RESOURCE,
      description: "Reads one resource of an MCP server by its uri (from list_mcp_resources, list_mcp_resource_templates or a resource link in a tool result).",
      parameters: {
        jsonSchema: { type: "object", properties: { server: serverProperty, uri: { type: "string", description: "The resource's URI." } }, required: ["server", "uri"] },
      },
      async execute(args, ctx): Promise<ToolResult> {
        const { server, uri } = args as { server: string; uri: string };
        await host.ready(ctx.signal);
        const connection = find(host, server);
        const result = await connection.request(`resources/read of ${uri}`, ctx.signal, (client, options) => client.readResource({ uri }, options));
        const content = result.contents.map((resource) => ({ type: "resource", resource: resource as Record<string, unknown> }));
        return toToolResult({ content }, { server, tool: READ_RESOURCE, readableResources: true, saveFullText: host.saveFullText });
      },
    },
  ];
}

function listTool(host: ResourceHost, name: string, key: "resources" | "resourceTemplates", description: string): ToolDefinition {
  return {
    name,
    description,
    parameters: {
      jsonSchema: { type: "object", properties: { server: serverProperty, cursor: { type: "string", description: "nextCursor of the previous page (with server)." } } },
    },
    async execute(args, ctx): Promise<ToolResult> {
      const { server, cursor } = args as { server?: string; cursor?: string };
      await host.ready(ctx.signal);
      const page = async (connection: McpConnection, at?: string) => {
        const params = at === undefined ? {} : { cursor: at };
        type Page = { nextCursor?: string } & Record<string, unknown>;
        const result = await connection.request<Page>(name, ctx.signal, async (client, options) =>
          key === "resources" ? ((await client.listResources(params, options)) as Page) : ((await client.listResourceTemplates(params, options)) as Page),
        );
        const items = ((result[key] ?? []) as Record<string, unknown>[]).map((item) => ({ server: connection.name, ...withoutMeta(item) }));
        return { items, nextCursor: result.nextCursor };
      };
      let body: Record<string, unknown>;
      if (server !== undefined) {
        const { items, nextCursor } = await page(find(host, server), cursor);
        body = { server, [key]: items, ...(nextCursor ? { nextCursor } : {}) };
      } else {
        const all: Record<string, unknown>[] = [];
        const errors: string[] = [];
        for (const { connection } of host.servers()) {
          try {
            let at: string | undefined;
            for (let count = 0; count < MAX_PAGES; count++) {
              const { items, nextCursor } = await page(connection, at);
              all.push(...items);
              at = nextCursor;
              if (!at) break;
            }
          } catch (error) {
            errors.push((error as Error).message);
          }
        }
        body = { [key]: all, ...(errors.length > 0 ? { errors } : {}) };
      }
      return toToolResult(
        { content: [{ type: "text", text: JSON.stringify(body, null, 2) }] },
        { server: server ?? "*", tool: name, readableResources: true, saveFullText: host.saveFullText },
      );
    },
  };
}

function find(host: ResourceHost, server: string): McpConnection {
  const servers = host.servers();
  const found = servers.find((candidate) => candidate.name === server);
  if (!found) throw new Error(`No MCP server named "${server}" offers resources${servers.length > 0 ? ` (servers with resources: ${servers.map((s) => s.name).join(", ")})` : ""}`);
  return found.connection;
}

function withoutMeta(item: Record<string, unknown>): Record<string, unknown> {
  const { _meta: _ignored, icons: _icons, ...rest } = item;
  return rest;
}
