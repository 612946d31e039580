/**
 * The LLM tool registry. Tools are not RPC commands: only the agent loop calls them, through
 * the tool_call / tool_result hooks. Parameters are a zod schema (validated here, and turned
 * into the JSON Schema the model sees) or, for foreign tools, a plain JSON Schema.
 */
import { z } from "zod";
import { kernelErrors } from "./errors.js";
import type { ImageContent, TextContent, ToolSpec } from "./types.js";
import { formatValidationError, ONE_SHOT } from "./validation.js";
import { isZodSchema, resolveSchema } from "./commands.js";

export interface ToolResult {
  content: (TextContent | ImageContent)[];
  details?: unknown;
  isError?: boolean;
}

export interface ToolExecutionContext {
  toolCallId: string;
  signal: AbortSignal;
  cwd: string;
  /** Report progress: the accumulated partial result so far (not a delta). */
  onUpdate(partial: ToolResult): void;
}

export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  /** A zod schema (or a thunk building it on first use), or a plain JSON Schema for foreign tools. */
  parameters: S | (() => S) | { jsonSchema: Record<string, unknown> };
  execute(args: z.output<S>, ctx: ToolExecutionContext): Promise<ToolResult>;
}

export function defineTool<S extends z.ZodType>(definition: ToolDefinition<S>): ToolDefinition<S> {
  return definition;
}

export type ToolValidation = { ok: true; args: Record<string, unknown> } | { ok: false; error: string };

export class ToolRegistry {
  readonly #tools = new Map<string, { definition: ToolDefinition; plugin: string; schema?: z.ZodType | { jsonSchema: Record<string, unknown> } }>();
  #specs: ToolSpec[] | undefined;
  #frozen = false;

  register(definition: ToolDefinition<any>, plugin = "kernel"): void {
    if (this.#frozen) throw kernelErrors.frozen(`register tool "${definition.name}"`);
    if (this.#tools.has(definition.name)) throw kernelErrors.duplicate("Tool", definition.name, plugin);
    this.#tools.set(definition.name, { definition, plugin });
    this.#specs = undefined;
  }

  get(name: string): ToolDefinition | undefined {
    return this.#tools.get(name)?.definition;
  }

  /** The tool's parameters, with a lazy schema built on first use. */
  #parameters(name: string): z.ZodType | { jsonSchema: Record<string, unknown> } | undefined {
    const entry = this.#tools.get(name);
    if (!entry) return undefined;
    const parameters = entry.definition.parameters;
    entry.schema ??= isJsonSchemaParameters(parameters) ? parameters : resolveSchema(parameters as z.ZodType | (() => z.ZodType));
    return entry.schema;
  }

  names(): string[] {
    return [...this.#tools.keys()];
  }

  /** What the model is told about every tool; computed once after registration settles. */
  specs(): ToolSpec[] {
    this.#specs ??= [...this.#tools.values()].map(({ definition }) => ({
      name: definition.name,
      description: definition.description,
      parameters: toJsonSchema(this.#parameters(definition.name)!),
    }));
    return this.#specs;
  }

  validate(name: string, args: unknown): ToolValidation {
    const parameters = this.#parameters(name);
    if (!parameters) return { ok: false, error: `Tool ${name} not found` };
    if (isJsonSchemaParameters(parameters)) {
      if (typeof args !== "object" || args === null || Array.isArray(args)) {
        return { ok: false, error: `Validation failed for tool "${name}": arguments must be an object` };
      }
      const missing = ((parameters.jsonSchema.required as string[] | undefined) ?? []).filter((key) => !(key in args));
      if (missing.length > 0) return { ok: false, error: `Validation failed for tool "${name}": Invalid ${missing[0]}: expected a value` };
      return { ok: true, args: args as Record<string, unknown> };
    }
    const parsed = (parameters as z.ZodType).safeParse(args ?? {}, ONE_SHOT);
    if (!parsed.success) {
      return { ok: false, error: `Validation failed for tool "${name}": ${formatValidationError(parsed.error)}` };
    }
    return { ok: true, args: parsed.data as Record<string, unknown> };
  }

  freeze(): void {
    this.#frozen = true;
  }
}

function isJsonSchemaParameters(parameters: unknown): parameters is { jsonSchema: Record<string, unknown> } {
  return typeof parameters === "object" && parameters !== null && "jsonSchema" in parameters && !isZodSchema(parameters);
}

function toJsonSchema(parameters: z.ZodType | { jsonSchema: Record<string, unknown> }): Record<string, unknown> {
  if (isJsonSchemaParameters(parameters)) return parameters.jsonSchema;
  const schema = z.toJSONSchema(parameters, { unrepresentable: "any" }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}
