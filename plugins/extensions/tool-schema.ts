/**
 * A tool's TypeBox or plain JSON Schema `parameters`, checked at registration as what providers
 * require of a tool: an object schema. Without a top-level `type` the kernel would take any
 * schema, validate nothing (`{ path: { type: "string" } }` accepts `{"path": 5}`) and send the
 * provider a schema it may refuse, so such schemas throw here, naming the slip. A wrong `type`
 * is left to the kernel's own check, whose message `inAuthorsTerms` words as the author wrote it.
 */
import { KernelError } from "../../kernel/index.js";

const SCHEMA_KEYWORDS = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "patternProperties",
  "anyOf",
  "oneOf",
  "allOf",
  "not",
  "$ref",
  "$defs",
  "definitions",
  "$schema",
  "$id",
  "items",
  "enum",
  "const",
  "title",
  "description",
]);

/** A schema object as plain JSON (TypeBox markers and functions dropped), refused unless it is an object schema. */
export function plainJsonSchema(name: string, parameters: unknown, hint: string): Record<string, unknown> {
  const refuse = (why: string) => new TypeError(`registerTool("${name}"): parameters ${why}`);
  if (typeof parameters !== "object" || parameters === null || Array.isArray(parameters)) {
    throw refuse(`must be a TypeBox/JSON Schema object or a zod schema${hint}`);
  }
  // A zod 3 schema (the extension's own zod) would serialise to its internals, not a JSON Schema.
  if ("_def" in parameters && typeof (parameters as { safeParse?: unknown }).safeParse === "function") {
    throw refuse("are a zod 3 schema; use zod 4, TypeBox or a JSON Schema object");
  }
  let schema: Record<string, unknown>;
  try {
    schema = JSON.parse(JSON.stringify(parameters)) as Record<string, unknown>;
  } catch (error) {
    throw refuse(`are not serialisable as JSON Schema (${error instanceof Error ? error.message : String(error)})`);
  }
  if (schema.type === undefined) throw refuse(untypedSchema(schema));
  return schema;
}

/** Why a schema without a top-level `type` is refused, and how to write it. */
function untypedSchema(schema: Record<string, unknown>): string {
  const keys = Object.keys(schema);
  const wrap = 'wrap it: Type.Object({...}) or { type: "object", properties: {...} }';
  if (keys.length === 0) return 'must be an object schema; for a tool without parameters use Type.Object({}) or { type: "object", properties: {} }';
  // `{ path: { type: "string" } }`: the properties, without the object schema around them.
  const propertiesMap = keys.every((key) => !SCHEMA_KEYWORDS.has(key) && typeof schema[key] === "object" && schema[key] !== null && !Array.isArray(schema[key]));
  if (propertiesMap) return `must be an object schema, not a map of properties (${keys.slice(0, 3).join(", ")}): ${wrap}`;
  if (schema.properties !== undefined) return 'must be an object schema: add type: "object" beside its properties (or build it with Type.Object({...}))';
  return `must be an object schema (type: "object"); it has no type at the top (it has ${keys.slice(0, 5).join(", ")}): providers accept only object parameters`;
}

/**
 * The kernel names a tool's schema by its internal field (`Tool "x" from "<file>": parameters.jsonSchema
 * ...`); the author wrote `parameters` in a `registerTool` call, so that is what the message says,
 * as the adapter's own checks do (the report around it names the extension's file).
 */
export function inAuthorsTerms(error: unknown, name: string, path: string): unknown {
  if (!(error instanceof KernelError)) return error;
  const kernelPrefix = `Tool "${name}" from "${path}": parameters.jsonSchema `;
  if (!error.message.startsWith(kernelPrefix)) return error;
  return new KernelError(error.code, `registerTool("${name}"): parameters ${error.message.slice(kernelPrefix.length)}`, { cause: error });
}
