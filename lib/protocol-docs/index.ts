/**
 * docs/protocol.md from the protocol's JSON Schema (`atomic schema`): one section per command
 * (fields, lane, an example, response data), per event (fields, an example) and per shared type,
 * rendered from the same zod schemas that validate the records; fields of nested objects are rows
 * of their own (`tokens.input`). Pure: schema in, markdown out, so a test can tell when the
 * checked-in page has drifted from the code, and `undocumented` what still lacks a description
 * or an example.
 */

type Schema = Record<string, unknown>;

const ENVELOPE = new Set(["type", "id"]);
const MAX_INLINE_FIELDS = 4;

const str = (value: unknown): string => (typeof value === "string" ? value : "");
const defName = (ref: string) => ref.replace("#/$defs/", "");
const anchor = (name: string) => name.toLowerCase().replace(/[^a-z0-9_-]/g, "");
const oneLine = (text: string) =>
  text
    .replace(/\s*\n\s*/g, " ")
    .replace(/\|/g, "\\|")
    .trim();

function properties(schema: Schema): [string, Schema][] {
  return Object.entries((schema.properties as Record<string, Schema> | undefined) ?? {});
}

function required(schema: Schema): Set<string> {
  return new Set((schema.required as string[] | undefined) ?? []);
}

/** A short type expression: `string`, `"a" \| "b"`, `[Model](#model) \| null`, `{text, images?}`, `ToolCall[]`. */
export function typeOf(schema: Schema | undefined, depth = 0): string {
  if (!schema || Object.keys(schema).filter((k) => k !== "description").length === 0) return "any";
  if (typeof schema.$ref === "string") {
    const name = defName(schema.$ref);
    return `[${name}](#${anchor(name)})`;
  }
  if ("const" in schema) return `\`${JSON.stringify(schema.const)}\``;
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => `\`${JSON.stringify(v)}\``).join(" \\| ");
  const union = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (union) return depth > 2 ? "object" : union.map((s) => typeOf(s, depth + 1)).join(" \\| ");
  if (Array.isArray(schema.type)) return schema.type.join(" \\| ");
  switch (schema.type) {
    case "array":
      return `${wrap(typeOf(schema.items as Schema | undefined, depth + 1))}[]`;
    case "object": {
      const fields = properties(schema);
      if (fields.length === 0) return schema.additionalProperties && schema.additionalProperties !== false ? "object (map)" : "{}";
      if (fields.length > MAX_INLINE_FIELDS || depth > 1) return "object";
      const needed = required(schema);
      return `{${fields.map(([name]) => (needed.has(name) ? name : `${name}?`)).join(", ")}}`;
    }
    case "integer":
      return "integer";
    default:
      return str(schema.type) || "any";
  }
}

const wrap = (type: string) => (type.includes("\\|") ? `(${type})` : type);

/** The object whose fields a field holds inline (itself, or its array's items), if any. */
function inlineObject(field: Schema): { schema: Schema; suffix: string } | undefined {
  if (field.type === "object" && properties(field).length > 0) return { schema: field, suffix: "" };
  const items = field.items as Schema | undefined;
  if (field.type === "array" && items?.type === "object" && properties(items).length > 0) return { schema: items, suffix: "[]" };
  return undefined;
}

/** One row per field, and one per field of an inline object inside it (`parent.child`). */
function fieldRows(schema: Schema, skip: Set<string>, prefix = ""): string[] {
  const needed = required(schema);
  return properties(schema)
    .filter(([name]) => !skip.has(name))
    .flatMap(([name, field]) => {
      const path = `${prefix}${name}`;
      const row = `| \`${path}\` | ${typeOf(field)} | ${needed.has(name) ? "yes" : "no"} | ${oneLine(str(field.description))} |`;
      const inner = inlineObject(field);
      return inner ? [row, ...fieldRows(inner.schema, new Set(), `${path}${inner.suffix}.`)] : [row];
    });
}

/** A fields table, or nothing for a record without fields. */
function fieldTable(schema: Schema, skip: Set<string>): string[] {
  const rows = fieldRows(schema, skip);
  if (rows.length === 0) return [];
  return ["| field | type | required | description |", "|---|---|---|---|", ...rows, ""];
}

/** A record's first example, as the one line it is on the wire. */
function example(def: Schema): string[] {
  const [first] = (def.examples as unknown[] | undefined) ?? [];
  return first === undefined ? [] : ["Example:", "", "```json", JSON.stringify(first), "```", ""];
}

/** Response `data`: its type, and its fields when it is an object of its own. */
function dataSection(response: Schema | undefined): string[] {
  if (!response) return ["Reply only: no response is written.", ""];
  const data = (response.properties as Record<string, Schema>).data;
  if (!data) return ["Response: no `data`.", ""];
  const lines = [`Response \`data\`: ${typeOf(data)}${data.description ? ` — ${oneLine(str(data.description))}` : ""}`, ""];
  const object = variants(data)?.find((shape) => shape.type === "object") ?? (data.anyOf as Schema[] | undefined)?.find((shape) => shape.type === "object") ?? data;
  if (object.type === "object" && properties(object).length > 0) lines.push(...fieldTable(object, new Set()));
  return lines;
}

/** The shapes of a record whose payload is a union (`extension_ui_request`: one per `method`). */
function variants(def: Schema): Schema[] | undefined {
  const union = (def.anyOf ?? def.oneOf) as Schema[] | undefined;
  return union?.every((option) => option.type === "object" && option.properties) ? union : undefined;
}

function commandName(def: Schema): string {
  const shape = variants(def)?.[0] ?? def;
  return str((shape.properties as Record<string, Schema> | undefined)?.type?.const);
}

/** A record's fields; a union record gets one sub-section per shape, titled by its discriminating field. */
function recordFields(def: Schema, envelope: Set<string> = ENVELOPE): string[] {
  const shapes = variants(def);
  if (!shapes) return [...fieldTable(def, envelope), ...example(def)];
  return shapes.flatMap((shape) => {
    const [key, field] = properties(shape).find(([name, value]) => !envelope.has(name) && "const" in value) ?? ["", {}];
    const title = key ? `\`${key}: ${JSON.stringify(field.const)}\`` : "variant";
    return [`#### ${title}`, "", ...(shape.description ? [oneLine(str(shape.description)), ""] : []), ...fieldTable(shape, new Set([...envelope, key])), ...example(shape)];
  });
}

function section(title: string, description: string): string[] {
  return [`### ${title}`, "", ...(description ? [oneLine(description), ""] : [])];
}

/** The whole page. */
export function renderProtocolDocs(schema: Schema): string {
  const defs = schema.$defs as Record<string, Schema>;
  const refs = (id: string) => ((defs[id]?.oneOf as Schema[] | undefined) ?? []).map((r) => defName(str(r.$ref)));
  const commands = refs("Command");
  const events = refs("Event");
  const responses = new Map(refs("Response").map((id) => [str((defs[id]!.properties as Record<string, Schema>).command?.const), defs[id]!]));
  const generated = new Set(["Command", "Response", "Event", ...commands, ...events, ...refs("Response")]);
  const vocabulary = Object.keys(defs).filter((id) => !generated.has(id));

  const out: string[] = [
    "# RPC protocol reference",
    "",
    "<!-- Generated from `atomic schema` by `npm run docs:protocol`: edit the zod schemas, not this file. -->",
    "",
    `${str(schema.description)} How records flow (framing, ids, errors, lanes, ordering, teardown): [protocol-guide.md](protocol-guide.md).`,
    "The same content as one JSON Schema document (draft 2020-12): `atomic schema`.",
    "",
    "Every command may carry an `id` (string or number), echoed exactly in its response. A failed command answers",
    '`{id?, type: "response", command, success: false, error}`. Unknown extra fields are ignored.',
    "",
    "## Commands",
    "",
    "| command | lane | response data |",
    "|---|---|---|",
  ];
  for (const id of commands) {
    const name = commandName(defs[id]!);
    const immediate = str(defs[id]!.description).includes("Immediate lane") ? "immediate" : "ordinary";
    const response = responses.get(name);
    const data = response ? ((response.properties as Record<string, Schema>).data ? typeOf((response.properties as Record<string, Schema>).data) : "-") : "no response";
    out.push(`| [\`${name}\`](#${anchor(name)}) | ${immediate} | ${data} |`);
  }
  out.push("");
  for (const id of commands) {
    const def = defs[id]!;
    const name = commandName(def);
    out.push(...section(`\`${name}\``, str(def.description)), ...fieldTable(def, ENVELOPE), ...example(def), ...dataSection(responses.get(name)));
  }
  out.push("## Events", "", "Events carry no `id` unless their fields say so. Clients should ignore event types they do not know.", "");
  for (const id of events) {
    const def = defs[id]!;
    out.push(...section(`\`${commandName(def)}\``, str(def.description)), ...recordFields(def));
  }
  out.push("## Shared types", "");
  for (const id of vocabulary) {
    const def = defs[id]!;
    out.push(...section(id, str(def.description)));
    if (def.type === "object" && properties(def).length > 0) out.push(...fieldTable(def, new Set()));
    else if (variants(def)) out.push(`${typeOf(def, 1)}`, "", ...recordFields(def, new Set()));
    else out.push(`${typeOf(def, 1)}`, "");
  }
  return `${out.join("\n").replace(/\n+$/, "")}\n`;
}

/**
 * What the page cannot say yet: every field (at any depth, in every shape) without a
 * description, every shared type without one, and every command and event without an example.
 * `Def.path` entries; empty when the protocol is fully documented.
 */
export function undocumented(schema: Schema): string[] {
  const defs = schema.$defs as Record<string, Schema>;
  const missing: string[] = [];
  const walk = (node: Schema | undefined, path: string, skipType: boolean) => {
    if (!node || typeof node !== "object") return;
    for (const option of [...((node.anyOf as Schema[] | undefined) ?? []), ...((node.oneOf as Schema[] | undefined) ?? [])]) walk(option, path, skipType);
    if (node.items) walk(node.items as Schema, `${path}[]`, false);
    if (typeof node.additionalProperties === "object") walk(node.additionalProperties as Schema, `${path}{}`, false);
    for (const [name, field] of properties(node)) {
      // A record's `type` (a constant) and a union shape's discriminator say what they are; a
      // response's `data` is what its fields describe.
      if ("const" in field && (skipType || name === "type" || name === "role" || name === "method")) continue;
      if (name === "data" && path.endsWith("Response")) {
        walk(field, `${path}.data`, false);
        continue;
      }
      if (!str(field.description)) missing.push(`${path}.${name}`);
      walk(field, `${path}.${name}`, false);
    }
  };
  const unions = new Set(["Command", "Response", "Event"]);
  const recordIds = (id: string) => ((defs[id]?.oneOf as Schema[] | undefined) ?? []).map((r) => defName(str(r.$ref)));
  const records = new Set([...recordIds("Command"), ...recordIds("Event")]);
  for (const [id, def] of Object.entries(defs)) {
    if (unions.has(id)) continue;
    if (!records.has(id) && !id.endsWith("Response") && !str(def.description)) missing.push(`${id}: no description`);
    walk(def, id, true);
  }
  for (const id of records) {
    const def = defs[id]!;
    const shapes = variants(def) ?? [def];
    if (shapes.some((shape) => !((shape.examples as unknown[] | undefined) ?? (def.examples as unknown[] | undefined))?.length)) missing.push(`${id}: no example`);
  }
  return missing;
}
