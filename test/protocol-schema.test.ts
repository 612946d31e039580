/**
 * The protocol as data (issue 13): every registered command declares its response, every event a
 * plugin emits has a registered schema, and `atomic schema` is one valid JSON Schema document
 * whose Command, Response and Event unions cover every record, every field of which has a
 * description and every command and event an example that its own schema accepts.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { BUILTIN_PLUGINS } from "../cli/builtins.js";
import { createHost, pascalCase, protocolSchema } from "../host/index.js";
import { silentLogger } from "../kernel/index.js";
import { renderProtocolDocs, undocumented } from "../lib/protocol-docs/index.js";
import { CLI, tempDir } from "./helpers/rpc-client.js";
import { NODE } from "./helpers/node.js";

const ROOT = resolve(import.meta.dirname, "..");

async function builtinHost() {
  const dir = tempDir("atomic-schema-");
  return createHost({ cwd: dir, agentDir: dir, env: {}, plugins: BUILTIN_PLUGINS, userPlugins: false, log: silentLogger });
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.includes("test-support") ? [path] : [];
  });
}

describe("protocol schema", () => {
  it("every built-in command declares its response (data or NO_DATA)", async () => {
    const host = await builtinHost();
    const undeclared = host.kernel.commands.names().filter((name) => host.kernel.commands.definition(name)!.output === undefined);
    expect(undeclared).toEqual([]);
  });

  it("every event type emitted in the source has a registered schema", async () => {
    const host = await builtinHost();
    const emitted = new Map<string, string>();
    for (const file of [...sources(join(ROOT, "kernel")), ...sources(join(ROOT, "plugins")), ...sources(join(ROOT, "lib"))]) {
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(/(?:events\.emit|\bemit)\(\s*"([a-z_]+)"|announce\([^,]+,\s*"([a-z_]+)"|dispatch\(\{\s*type:\s*"([a-z_]+)"/g)) {
        emitted.set((match[1] ?? match[2] ?? match[3])!, relative(ROOT, file));
      }
    }
    expect(emitted.size).toBeGreaterThan(15);
    const missing = [...emitted].filter(([name]) => !host.kernel.eventSchemas.has(name)).map(([name, file]) => `${name} (${file})`);
    expect(missing).toEqual([]);
  });

  it("`atomic schema` prints one valid draft 2020-12 document covering every command, response and event", async () => {
    const schema = JSON.parse(execFileSync(NODE, [CLI, "schema"], { env: { ...process.env, ATOMIC_CODING_AGENT_DIR: tempDir("atomic-schema-agent-") }, encoding: "utf8" }));
    // A validator built from it hears of no format it does not know (only standard ones are used).
    const warnings: unknown[] = [];
    const ajv = new Ajv2020({
      strict: false,
      logger: { log: () => undefined, warn: (...args: unknown[]) => warnings.push(args), error: (...args: unknown[]) => warnings.push(args) },
    });
    expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true);
    ajv.addSchema(schema, "protocol");
    const host = await builtinHost();
    const defs = schema.$defs as Record<string, { oneOf?: { $ref: string }[] }>;
    const refs = (id: string) => defs[id]!.oneOf!.map((r) => r.$ref.replace("#/$defs/", ""));
    expect(refs("Command").sort()).toEqual(
      host.kernel.commands
        .names()
        .map((n) => `${pascalCase(n)}Command`)
        .sort(),
    );
    expect(refs("Event").sort()).toEqual([...host.kernel.eventSchemas.keys()].map((n) => `${pascalCase(n)}Event`).sort());
    expect(refs("Response")).toContain("ErrorResponse");
    expect(refs("Response")).not.toContain("ExtensionUiResponseResponse");
    const command = ajv.getSchema("protocol#/$defs/Command")!;
    expect(command({ type: "prompt", id: 1, message: "hi", futureField: true })).toBe(true);
    expect(command({ type: "prompt" })).toBe(false);
    const event = ajv.getSchema("protocol#/$defs/Event")!;
    expect(event({ type: "queue_update", steering: ["a"], followUp: [] })).toBe(true);
    expect(event({ type: "queue_update", steering: "a" })).toBe(false);
    expect(command({ type: "prompt", id: 1, message: "hi", images: [{ type: "image", data: "aGk=", mimeType: "image/png" }] })).toBe(true);
    expect(command({ type: "prompt", id: 1, message: "hi", images: [{ type: "image", data: "not base64!", mimeType: "image/png" }] })).toBe(false);
    expect(warnings).toEqual([]);
    // The in-process and the printed schema are the same document.
    expect(protocolSchema(host.kernel)).toEqual(schema);
  });

  it("every field has a description; every command and event has an example its schema accepts", async () => {
    const schema = protocolSchema((await builtinHost()).kernel) as { $defs: Record<string, Record<string, unknown>> };
    expect(undocumented(schema)).toEqual([]);
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema(schema, "protocol");
    const rejected: string[] = [];
    let checked = 0;
    for (const [id, def] of Object.entries(schema.$defs)) {
      const validate = ajv.getSchema(`protocol#/$defs/${id}`)!;
      for (const shape of [def, ...((def.anyOf as Record<string, unknown>[] | undefined) ?? [])]) {
        for (const example of (shape.examples as unknown[] | undefined) ?? []) {
          checked++;
          if (!validate(example)) rejected.push(`${id}: ${JSON.stringify(validate.errors)}`);
        }
      }
    }
    expect(rejected).toEqual([]);
    expect(checked).toBeGreaterThan(60);
  });

  it("docs/protocol.md is the page generated from `atomic schema` (run `npm run docs:protocol` after changing a schema)", () => {
    const schema = JSON.parse(execFileSync(NODE, [CLI, "schema"], { env: { ...process.env, ATOMIC_CODING_AGENT_DIR: tempDir("atomic-schema-agent-") }, encoding: "utf8" }));
    const checkedIn = readFileSync(join(ROOT, "docs/protocol.md"), "utf8");
    expect(checkedIn === renderProtocolDocs(schema), "docs/protocol.md is stale: run `npm run docs:protocol`").toBe(true);
  });
});
