/**
 * Tools as a script sees them: TypeScript declarations rendered from their JSON Schemas, the
 * script identifier of a name (`mcp__dev-radius__search` is `mcp__dev_radius__search`), and the
 * "sample" (description, then the declaration) that `describeTool()`, `ALL_TOOLS` and the
 * codemode description show.
 */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** A rendered type longer than this is shown as `unknown` (its fields stay reachable through describeTool). */
const MAX_TYPE_CHARS = 6000;
const MAX_DEPTH = 8;

type Schema = Record<string, unknown>;

/** Characters not valid in a JavaScript identifier become `_`; a leading digit gets one too. */
export function toIdentifier(name: string): string {
  const replaced = name.replace(/[^A-Za-z0-9_$]/g, "_");
  return /^[0-9]/.test(replaced) ? `_${replaced}` : replaced || "_";
}

export interface DeclaredTool {
  name: string;
  description: string;
  inputSchema?: unknown;
  /** Absent: the call resolves to the tool's text. */
  outputSchema?: unknown;
}

/** The type a call resolves to. */
export function outputType(schema: unknown): string {
  return schema === undefined ? "string" : typeOf(schema, schema, "", 0);
}

/** `tools.<id>(args: {...}): Promise<...>` with the description as a doc comment. */
export function toolSignature(tool: DeclaredTool): string {
  const input = tool.inputSchema === undefined ? "{}" : typeOf(tool.inputSchema, tool.inputSchema, "  ", 0);
  return `${propertyKey(toIdentifier(tool.name))}(args: ${input}): Promise<${outputType(tool.outputSchema)}>;`;
}

/** The description, then the declaration in a fenced block. */
export function toolSample(tool: DeclaredTool): string {
  return `${tool.description.trim()}\n\ncodemode tool declaration:\n\`\`\`ts\ndeclare const tools: { ${toolSignature(tool)} };\n\`\`\``;
}

function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** A local `#/...` reference inside `root`, or undefined. */
export function resolveRef(ref: string, root: unknown): unknown {
  if (!ref.startsWith("#")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split("/").filter(Boolean)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Schema)[key];
  }
  return node;
}

function typeOf(schema: unknown, root: unknown, indent: string, depth: number, seen: Set<unknown> = new Set()): string {
  const rendered = render(schema, root, indent, depth, seen);
  return rendered.length > MAX_TYPE_CHARS ? "unknown" : rendered;
}

function render(schema: unknown, root: unknown, indent: string, depth: number, seen: Set<unknown>): string {
  if (schema === true || schema === undefined) return "unknown";
  if (schema === false) return "never";
  if (typeof schema !== "object" || schema === null || depth > MAX_DEPTH) return "unknown";
  const node = schema as Schema;
  if (typeof node.$ref === "string") {
    const target = resolveRef(node.$ref, root);
    if (target === undefined || seen.has(target)) return "unknown";
    return render(target, root, indent, depth + 1, new Set([...seen, target]));
  }
  if (node.const !== undefined) return JSON.stringify(node.const);
  if (Array.isArray(node.enum)) return union(node.enum.map((value) => JSON.stringify(value)));
  const variants = (node.anyOf ?? node.oneOf) as unknown[] | undefined;
  if (Array.isArray(variants)) return union(variants.map((variant) => render(variant, root, indent, depth + 1, seen)));
  if (Array.isArray(node.allOf) && node.allOf.length === 1) return render(node.allOf[0], root, indent, depth + 1, seen);
  const type = node.type;
  if (Array.isArray(type)) return union(type.map((one) => render({ ...node, type: one }, root, indent, depth, seen)));
  switch (type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array": {
      const items = node.items === undefined ? "unknown" : render(node.items, root, indent, depth + 1, seen);
      return `Array<${items}>`;
    }
    case "object":
      return objectType(node, root, indent, depth, seen);
    default:
      return node.properties ? objectType(node, root, indent, depth, seen) : "unknown";
  }
}

function objectType(node: Schema, root: unknown, indent: string, depth: number, seen: Set<unknown>): string {
  const properties = (typeof node.properties === "object" && node.properties !== null ? node.properties : {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
  const names = Object.keys(properties);
  const extra = node.additionalProperties;
  if (names.length === 0) {
    if (extra === false) return "{}";
    const value = typeof extra === "object" && extra !== null ? render(extra, root, indent, depth + 1, seen) : "unknown";
    return `Record<string, ${value}>`;
  }
  const inner = `${indent}  `;
  const lines = names.map((name) => {
    const property = properties[name];
    const comment = propertyComment(property);
    const type = render(property, root, inner, depth + 1, seen);
    return `${comment ? `${inner}// ${comment}\n` : ""}${inner}${propertyKey(name)}${required.has(name) ? "" : "?"}: ${type};`;
  });
  return `{\n${lines.join("\n")}\n${indent}}`;
}

/** The property's description and what its type cannot say (`@default 20`), on one line. */
function propertyComment(property: unknown): string {
  if (typeof property !== "object" || property === null) return "";
  const node = property as Schema;
  const parts: string[] = [];
  if (typeof node.description === "string" && node.description.trim()) parts.push(node.description.trim().replace(/\s*\n\s*/g, " "));
  if (node.type === "integer") parts.push("@integer");
  for (const key of ["minimum", "maximum", "minLength", "maxLength", "pattern", "default"]) {
    if (node[key] !== undefined) parts.push(`@${key} ${JSON.stringify(node[key])}`);
  }
  return parts.join(" ");
}

function union(types: string[]): string {
  const unique = [...new Set(types)];
  if (unique.includes("unknown")) return "unknown";
  return unique.length === 0 ? "never" : unique.join(" | ");
}
