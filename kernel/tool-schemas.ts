/**
 * Tool parameters as schemas: zod schemas built once per process, their JSON Schema for the
 * model, and validators for tools that bring a plain JSON Schema (through zod's converter,
 * loaded on first need).
 */
import { z } from "zod";
import { kernelErrors } from "./errors.js";
import { isZodSchema, resolveSchema } from "./commands.js";
import type { ToolDefinition, ToolParameters } from "./tools.js";

/**
 * zod's JSON Schema converter (`./json-schema.js`) is a chunk of its own, loaded on first need:
 * most agents offer no JSON Schema tool, and it is ~50 KB of startup otherwise.
 */
let converter: typeof import("./json-schema.js") | undefined;
let converterLoading: Promise<void> | undefined;

/**
 * Loads the converter. Call it before registering JSON Schema tools late (the extensions plugin
 * does, before loading extensions) so a schema the converter rejects fails at registration;
 * without it, that check happens at the tool's first call.
 */
export function loadJsonSchemaSupport(): Promise<void> {
  converterLoading ??= import("./json-schema.js").then((module) => {
    converter = module;
  });
  return converterLoading;
}

/**
 * A tool module's schema is shared by every kernel in the process (agents embedded side by side):
 * the zod schema a thunk builds and its JSON Schema are made once per process, keyed by the
 * thunk or schema object (a per-kernel closure is a different key, so it is never shared). Each
 * registry gets its own copy of the JSON Schema, so a request hook editing one cannot reach
 * another agent.
 */
const builtSchemas = new WeakMap<object, z.ZodType>();
const jsonSchemas = new WeakMap<object, string>();

/** A JSON Schema tool's parameters and the zod validator built from them (once, lazily). */
export interface JsonSchemaParameters {
  jsonSchema: Record<string, unknown>;
  label: string;
  validator?: z.ZodType;
}

/**
 * The zod schema a tool's parameters name (a thunk is called once per process). `unknown`: a
 * plugin's thunk may return anything, and the registry refuses what is not a zod schema.
 */
export function builtSchema(source: z.ZodType | (() => z.ZodType)): unknown {
  let schema = builtSchemas.get(source);
  if (!schema) {
    const resolved = resolveSchema(source);
    if (!isZodSchema(resolved)) return resolved;
    schema = resolved;
    builtSchemas.set(source, schema);
  }
  return schema;
}

/** The zod validator of a JSON Schema tool's parameters (loads the converter the first time). */
export async function jsonSchemaValidator(parameters: JsonSchemaParameters): Promise<z.ZodType> {
  await loadJsonSchemaSupport();
  return converter!.jsonSchemaValidator(parameters.jsonSchema, parameters.label);
}

/** Built now when the converter is loaded (a schema it rejects fails at registration); else its load starts. */
export function validatorIfLoaded(parameters: JsonSchemaParameters): z.ZodType | undefined {
  if (converter) return converter.jsonSchemaValidator(parameters.jsonSchema, parameters.label);
  void loadJsonSchemaSupport();
  return undefined;
}

/** What can be checked without the converter: an object schema with well-formed properties and required keys. */
export function checkJsonSchemaShape(schema: unknown, label: string): void {
  const invalid = (detail: string) => kernelErrors.invalidInput(`${label}: parameters.jsonSchema ${detail}`);
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) throw invalid("must be a JSON Schema object");
  const { type, properties, required } = schema as { type?: unknown; properties?: unknown; required?: unknown };
  if (type !== undefined && type !== "object") throw invalid(`must describe an object (type "object"), not ${JSON.stringify(type)}`);
  if (properties !== undefined && (typeof properties !== "object" || properties === null || Array.isArray(properties))) throw invalid('has a "properties" that is not an object');
  if (required !== undefined && (!Array.isArray(required) || required.some((key) => typeof key !== "string"))) throw invalid('has a "required" that is not an array of strings');
}

export function isJsonSchemaParameters(parameters: unknown): parameters is { jsonSchema: Record<string, unknown> } {
  return typeof parameters === "object" && parameters !== null && "jsonSchema" in parameters && !isZodSchema(parameters);
}

export function isResolvedJsonSchema(parameters: z.ZodType | JsonSchemaParameters): parameters is JsonSchemaParameters {
  return !isZodSchema(parameters) && "jsonSchema" in parameters;
}

/**
 * The JSON Schema the model is shown for a tool: its precomputed one, else its parameters'.
 * A private copy either way: a request hook editing it reaches no other agent.
 */
export function toolJsonSchema(definition: ToolDefinition<any>): Record<string, unknown> {
  const precomputed = definition.precomputedJsonSchema;
  return precomputed ? (JSON.parse(JSON.stringify(precomputed)) as Record<string, unknown>) : parametersJsonSchema(definition.parameters);
}

/** The JSON Schema the model is shown for a tool's parameters (zod converted, or the tool's own JSON Schema). */
export function parametersJsonSchema(parameters: ToolParameters): Record<string, unknown> {
  if (isJsonSchemaParameters(parameters)) return parameters.jsonSchema;
  return toJsonSchema(resolveSchema(parameters as z.ZodType | (() => z.ZodType)));
}

export function toJsonSchema(parameters: z.ZodType | JsonSchemaParameters): Record<string, unknown> {
  if (isResolvedJsonSchema(parameters)) return parameters.jsonSchema;
  let text = jsonSchemas.get(parameters);
  if (text === undefined) {
    const schema = z.toJSONSchema(parameters, { unrepresentable: "any" }) as Record<string, unknown>;
    delete schema.$schema;
    text = JSON.stringify(schema);
    jsonSchemas.set(parameters, text);
  }
  // Parsing the cached text is the cheapest private copy (about 3x faster than structuredClone).
  return JSON.parse(text) as Record<string, unknown>;
}
