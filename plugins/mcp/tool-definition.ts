/**
 * An MCP tool as an agent tool: its JSON Schema passed through (as an object schema with
 * `properties`, which every provider accepts; `$schema` dropped), its description, and an
 * `execute` that finds the server's current connection when it runs, so a reconnected or
 * reconfigured server is the one called.
 */
import type { ToolDefinition, ToolExecutionContext, ToolNamespace, ToolResult } from "../../kernel/index.js";
import { cutDescription } from "./direct-cap.js";

export interface McpToolSource {
  server: string;
  /** The tool's name on its server. */
  tool: string;
  description?: string;
  title?: string;
  inputSchema?: Record<string, unknown>;
}

export type CallTool = (server: string, tool: string, args: Record<string, unknown>, ctx: ToolExecutionContext) => Promise<ToolResult>;

/** What a caller (a codemode script) receives: the server's whole CallToolResult. */
export const CALL_TOOL_RESULT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    content: { type: "array", items: { type: "object", properties: { type: { type: "string" } }, required: ["type"] }, description: "The result's content blocks" },
    structuredContent: { type: "object", description: "The machine-readable result, when the tool has one" },
    isError: { type: "boolean", description: "The tool reports a failure" },
  },
  required: ["content"],
};

/**
 * `namespace`: the server, for codemode's listing and lookups. `reach`: `direct` tools are offered
 * to the model; the others are registered for codemode scripts and tool_search, offered only once
 * tool_search loaded them (`loaded`). `descriptionChars`: the most of its description offered
 * (settings mcp.directTools.descriptionChars).
 */
export function mcpToolDefinition(
  name: string,
  source: McpToolSource,
  call: CallTool,
  options: { namespace?: ToolNamespace; reach?: "direct" | "indirect"; loaded?: boolean; descriptionChars?: number } = {},
): ToolDefinition {
  return {
    name,
    description: cutDescription(
      source.description?.trim() || source.title?.trim() || `MCP tool ${source.tool} of server "${source.server}"`,
      options.descriptionChars ?? Number.POSITIVE_INFINITY,
    ),
    parameters: { jsonSchema: objectSchema(source.inputSchema) },
    outputSchema: CALL_TOOL_RESULT_SCHEMA,
    ...(options.namespace ? { namespace: options.namespace } : {}),
    ...(options.reach === "indirect" ? { exposure: "deferred" as const, defaultActive: options.loaded === true } : {}),
    execute: (args, ctx) => call(source.server, source.tool, args as Record<string, unknown>, ctx),
  };
}

/** The schema as providers take it: an object with `properties` and well-formed `required`. */
export function objectSchema(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const { $schema: _dropped, ...rest } = schema ?? {};
  const properties = typeof rest.properties === "object" && rest.properties !== null && !Array.isArray(rest.properties) ? rest.properties : {};
  const required = Array.isArray(rest.required) ? rest.required.filter((key): key is string => typeof key === "string") : undefined;
  return { ...rest, type: "object", properties, ...(required ? { required } : {}) };
}

/**
 * For a schema the kernel's converter cannot turn into a validator: the tool stays callable with
 * any object (the server validates its own input), and the model still reads the schema.
 */
export function permissiveDefinition(definition: ToolDefinition, schema: Record<string, unknown>): ToolDefinition {
  return {
    ...definition,
    description: `${definition.description}\n\nArguments (JSON Schema): ${JSON.stringify(schema)}`,
    parameters: { jsonSchema: { type: "object", properties: {}, additionalProperties: true } },
  };
}
