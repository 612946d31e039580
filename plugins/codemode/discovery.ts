/**
 * The script's lookup helpers over the tools it may call: `searchTools(query, { limit, namespace })`
 * ranks them the way `tool_search` does, `describeTool(name)` gives one tool's description and
 * declaration, `describeNamespace(name)` a namespace (an MCP server) with its tools.
 */
import { rankTools, schemaWords } from "../mcp/api.js";
import { isNamespaceName, type CatalogTool } from "./catalog.js";
import { toIdentifier } from "./declarations.js";

export const DISCOVERY_GLOBALS = ["searchTools", "describeTool", "describeNamespace"] as const;
const DEFAULT_LIMIT = 8;

type Entry = { name: string; description: string };

export async function callDiscovery(tools: readonly CatalogTool[], name: string, args: unknown[]): Promise<unknown> {
  if (name === "searchTools") return searchTools(tools, args);
  if (name === "describeTool") return describeTool(tools, args);
  if (name === "describeNamespace") return describeNamespace(tools, args);
  throw new Error(`${name} is not a codemode global`);
}

const entry = (tool: CatalogTool): Entry => ({ name: toIdentifier(tool.name), description: tool.sample });

async function searchTools(tools: readonly CatalogTool[], [query, options]: unknown[]): Promise<Entry[]> {
  if (typeof query !== "string") throw new Error("searchTools() expects a query string");
  const given = (options ?? {}) as { limit?: unknown; namespace?: unknown };
  const limit = given.limit ?? DEFAULT_LIMIT;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit <= 0) throw new Error("searchTools() limit must be a positive integer");
  const namespace = given.namespace;
  if (namespace !== undefined && namespace !== null && typeof namespace !== "string") throw new Error("searchTools() namespace must be a string");
  const pool = tools.filter((tool) => !namespace || (tool.namespace !== undefined && isNamespaceName(tool.namespace, namespace)));
  const candidates = pool.map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: schemaWords(tool.inputSchema as Record<string, unknown> | undefined),
    server: tool.namespace ? [tool.namespace.name, ...(tool.namespace.aliases ?? []), tool.namespace.description ?? "", tool.namespace.instructions ?? ""].join(" ") : "",
  }));
  const byName = new Map(pool.map((tool) => [tool.name, tool]));
  return (await rankTools(query, candidates, limit)).map((name) => entry(byName.get(name)!));
}

function describeTool(tools: readonly CatalogTool[], [name]: unknown[]): string | undefined {
  if (typeof name !== "string") throw new Error("describeTool() expects a tool name");
  return tools.find((tool) => tool.name === name || toIdentifier(tool.name) === name)?.sample;
}

function describeNamespace(tools: readonly CatalogTool[], [name]: unknown[]): unknown {
  if (typeof name !== "string") throw new Error("describeNamespace() expects a namespace name");
  const members = tools.filter((tool) => tool.namespace !== undefined && isNamespaceName(tool.namespace, name));
  const namespace = members[0]?.namespace;
  if (!namespace) return undefined;
  return {
    name: namespace.name,
    ...(namespace.description ? { description: namespace.description } : {}),
    ...(namespace.instructions ? { instructions: namespace.instructions } : {}),
    tools: members.map((tool) => toIdentifier(tool.name)),
  };
}
