/**
 * Validates the end-to-end tests' traffic against the protocol schema the built CLI prints
 * (`atomic schema`): every command a test sends and every response and event it receives. The
 * schema is generated once per plugin list (user plugins add commands and events) and cached in
 * the temp folder for every test worker; a shape that drifts from its schema fails the test.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, renameSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv";
import { NODE } from "./node.js";
import { seedAgentTranspileCache } from "./transpile-cache.js";

type Json = Record<string, unknown>;

interface Validators {
  command(type: string): ValidateFunction | undefined;
  response(command: string): ValidateFunction | undefined;
  error: ValidateFunction;
  event(type: string): ValidateFunction | undefined;
}

const cache = new Map<string, Validators>();
/** The same validators for the same schema text: most user plugins add no command or event. */
const bySchema = new Map<string, Validators>();

const pascal = (name: string) => name.replace(/(^|_)([a-z0-9])/g, (_, _s: string, ch: string) => ch.toUpperCase());

/** The protocol schema of the CLI at `cli` with these user plugins (generated once, then cached). */
export function protocolSchemaFor(cli: string, plugins: readonly string[]): Json {
  const key = createHash("sha1")
    .update(JSON.stringify({ cli, mtime: statSync(cli).mtimeMs, plugins }))
    .digest("hex")
    .slice(0, 16);
  const dir = join(tmpdir(), "atomic-protocol-schema");
  const file = join(dir, `${key}.json`);
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Json;
  } catch {
    const agentDir = mkdtempSync(join(tmpdir(), "atomic-schema-agent-"));
    try {
      if (plugins.length > 0) writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ plugins }));
      // The plugins are loaded to list what they add: from the kept transpile cache, when they are the repository's.
      const keepTranspiled = seedAgentTranspileCache(agentDir, [], agentDir);
      const text = execFileSync(NODE, [cli, "schema"], { env: { ...process.env, ATOMIC_CODING_AGENT_DIR: agentDir }, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
      keepTranspiled?.();
      mkdirSync(dir, { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, text);
      renameSync(tmp, file);
      return JSON.parse(text) as Json;
    } finally {
      rmSync(agentDir, { recursive: true, force: true });
    }
  }
}

function validators(cli: string, plugins: readonly string[]): Validators {
  const key = `${cli}\0${plugins.join("\0")}`;
  let found = cache.get(key);
  if (found) return found;
  const schema = protocolSchemaFor(cli, plugins);
  const schemaKey = createHash("sha1").update(JSON.stringify(schema)).digest("hex");
  found = bySchema.get(schemaKey);
  if (found) {
    cache.set(key, found);
    return found;
  }
  // A $ref is called, not inlined: inlined, every definition compiles its whole closure again
  // (the event union, the messages), twice the CPU for the same checks.
  const ajv = new Ajv2020({ strict: false, allErrors: false, inlineRefs: false });
  ajv.addSchema(schema, "protocol");
  const defs = schema.$defs as Json;
  const compiled = new Map<string, ValidateFunction | undefined>();
  const get = (id: string) => {
    if (!compiled.has(id)) compiled.set(id, id in defs ? ajv.getSchema(`protocol#/$defs/${id}`) : undefined);
    return compiled.get(id);
  };
  // Compiled now, before the client starts its agent: compiling on the first streamed record
  // would stall the client mid-stream (and change the timing the agent-loop tests depend on).
  for (const id of Object.keys(defs)) get(id);
  found = {
    command: (type) => get(`${pascal(type)}Command`),
    response: (command) => get(`${pascal(command)}Response`),
    error: get("ErrorResponse")!,
    event: (type) => get(`${pascal(type)}Event`),
  };
  cache.set(key, found);
  bySchema.set(schemaKey, found);
  return found;
}

/**
 * Runs a validator without letting its type guard narrow the caller's variable. A record nested
 * deeper than the validator's own recursion allows (a `get_tree` of a 20,000-entry branch) is
 * passed unchecked: the limit is ajv's, not the protocol's.
 */
function ok(validate: ValidateFunction, data: unknown): boolean {
  try {
    return validate(data) === true;
  } catch (error) {
    if (error instanceof RangeError) return true;
    throw error;
  }
}

function describe(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .slice(0, 3)
    .map((e) => `${e.instancePath || "/"} ${e.message ?? ""} ${JSON.stringify(e.params)}`)
    .join("; ");
}

function clip(record: unknown): string {
  const text = JSON.stringify(record);
  return text.length > 400 ? `${text.slice(0, 400)}...` : text;
}

export class ProtocolChecker {
  readonly #v: () => Validators;

  constructor(cli: string, plugins: readonly string[]) {
    const loaded = validators(cli, plugins);
    this.#v = () => loaded;
  }

  /** Why a command a test sends does not match its schema (undefined: it matches). */
  checkOutgoing(record: Json): string | undefined {
    const type = record.type;
    if (typeof type !== "string") return `sent a record without a string type: ${clip(record)}`;
    const validate = this.#v().command(type);
    if (!validate) return `sent "${type}", a command the protocol schema does not have`;
    return ok(validate, record) ? undefined : `sent "${type}" off its schema (${describe(validate)}): ${clip(record)}`;
  }

  /** Why a received record does not match its schema (undefined: it matches). */
  checkIncoming(record: Json): string | undefined {
    const v = this.#v();
    if (record.type === "response") {
      if (record.success === false) return ok(v.error, record) ? undefined : `error response off its schema (${describe(v.error)}): ${clip(record)}`;
      const validate = typeof record.command === "string" ? v.response(record.command) : undefined;
      if (!validate) return `a response to "${String(record.command)}", which the protocol schema does not have`;
      return ok(validate, record) ? undefined : `response to "${String(record.command)}" off its schema (${describe(validate)}): ${clip(record)}`;
    }
    const type = String(record.type);
    const validate = v.event(type);
    if (!validate) return `event "${type}" is not in the protocol schema: ${clip(record)}`;
    return ok(validate, record) ? undefined : `event "${type}" off its schema (${describe(validate)}): ${clip(record)}`;
  }
}
