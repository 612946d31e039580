/**
 * `pi.registerTool` as a kernel tool. Parameters: a zod schema as is, a TypeBox or plain JSON
 * Schema object as `{ jsonSchema }` (checked at registration, validated on every call). The
 * extension's `execute(toolCallId, params, signal, onUpdate, ctx)` runs raced against the run's
 * abort signal and the abort gate, so a tool that ignores its signal cannot hold up `abort`.
 */
import { isZodSchema, ToolRegistry, type ToolDefinition as KernelTool } from "../../kernel/index.js";
import { createToolContext } from "./context.js";
import type { ExtensionHost } from "./host.js";
import { misspelt } from "./misspelt.js";
import { inAuthorsTerms, plainJsonSchema } from "./tool-schema.js";
import { invalidResult, RESULT_SHAPE, toResult } from "./tool-result.js";
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
  let warned = false;
  /** A result that is no `{content: [...]}`: the model gets an error saying so, the author one report per tool. */
  const checked = (result: unknown) => {
    const problem = invalidResult(result);
    if (problem === undefined) return toResult(result as ToolResultContent);
    if (!warned) host.report(path, `tool:${name}`, `execute of tool "${name}" returned ${problem}; it must return ${RESULT_SHAPE}`);
    warned = true;
    throw new Error(`Tool "${name}" returned an invalid result: ${problem}; expected ${RESULT_SHAPE}`);
  };
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
          return checked(await execute.call(tool, call.toolCallId, args, call.signal, onUpdate, ctx));
        },
        () => {
          throw new Error("Tool execution was aborted");
        },
        { signal: call.signal },
      ),
  };
  // The kernel's own check, before anything is registered: a bad schema fails here, in the author's terms.
  try {
    new ToolRegistry().register(definition, path, { late: true });
  } catch (error) {
    throw inAuthorsTerms(error, name, path);
  }
  return definition;
}
