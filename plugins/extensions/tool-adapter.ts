/**
 * `pi.registerTool` as a kernel tool. Parameters: a zod schema as is, a TypeBox or plain JSON
 * Schema object as `{ jsonSchema }` (checked at registration, validated on every call). The
 * extension's `execute(toolCallId, params, signal, onUpdate, ctx)` runs raced against the run's
 * abort signal and the abort gate, so a tool that ignores its signal cannot hold up `abort`.
 */
import { isZodSchema, ToolRegistry, type ToolDefinition as KernelTool, type ToolResult } from "../../kernel/index.js";
import { createToolContext } from "./context.js";
import type { ExtensionHost } from "./host.js";
import { misspelt } from "./misspelt.js";
import type { ToolDefinition, ToolResultContent } from "./types/api.js";

/** What every provider accepts as a tool name. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export function adaptTool(host: ExtensionHost, path: string, tool: ToolDefinition<any>): KernelTool {
  if (typeof tool !== "object" || tool === null) throw new TypeError("registerTool: expected a tool definition object");
  const { name, description, parameters, execute, prepareArguments } = tool;
  if (typeof name !== "string" || !TOOL_NAME.test(name)) throw new TypeError(`registerTool: the name must be 1-64 letters, digits, "_" or "-" (got ${JSON.stringify(name)})`);
  if (typeof description !== "string") throw new TypeError(`registerTool("${name}"): description must be a string (what the model is told)${misspelt(tool, "description")}`);
  if (typeof execute !== "function") throw new TypeError(`registerTool("${name}"): execute must be a function${misspelt(tool, "execute")}`);
  if (prepareArguments !== undefined && typeof prepareArguments !== "function") throw new TypeError(`registerTool("${name}"): prepareArguments must be a function`);
  const definition: KernelTool = {
    name,
    description,
    parameters: isZodSchema(parameters) ? parameters : { jsonSchema: plainJsonSchema(name, parameters, misspelt(tool, "parameters")) },
    ...(prepareArguments ? { prepareArguments: (args: unknown) => host.enter(() => prepareArguments.call(tool, args)) } : {}),
    execute: (args, call) =>
      host.gate.run(
        async () => {
          const ctx = createToolContext(host, { dismiss: host.gate.signal }, call);
          const onUpdate = (partial: ToolResultContent) => call.onUpdate(toResult(partial));
          return toResult(await execute.call(tool, call.toolCallId, args, call.signal, onUpdate, ctx));
        },
        () => {
          throw new Error("Tool execution was aborted");
        },
        call.signal,
      ),
  };
  // The kernel's own check, before anything is registered: a bad schema fails here, naming the tool.
  new ToolRegistry().register(definition, path, { late: true });
  return definition;
}

/** A schema object as plain JSON (TypeBox markers and functions dropped). */
function plainJsonSchema(name: string, parameters: unknown, hint: string): Record<string, unknown> {
  if (typeof parameters !== "object" || parameters === null || Array.isArray(parameters)) {
    throw new TypeError(`registerTool("${name}"): parameters must be a TypeBox/JSON Schema object or a zod schema${hint}`);
  }
  // A zod 3 schema (the extension's own zod) would serialise to its internals, not a JSON Schema.
  if ("_def" in parameters && typeof (parameters as { safeParse?: unknown }).safeParse === "function") {
    throw new TypeError(`registerTool("${name}"): parameters are a zod 3 schema; use zod 4, TypeBox or a JSON Schema object`);
  }
  try {
    return JSON.parse(JSON.stringify(parameters)) as Record<string, unknown>;
  } catch (error) {
    throw new TypeError(`registerTool("${name}"): parameters are not serialisable as JSON Schema (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** The kernel's result shape; a result without a content array is passed on for the loop to report. */
function toResult(result: ToolResultContent | undefined): ToolResult {
  if (!result || !Array.isArray(result.content)) return result as unknown as ToolResult;
  return {
    content: result.content,
    ...(result.details !== undefined ? { details: result.details } : {}),
    ...(result.isError === true ? { isError: true } : {}),
    ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
    ...(result.terminate === true ? { terminate: true } : {}),
  };
}
