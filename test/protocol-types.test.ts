/**
 * The typed client's and the SDK's types come from the protocol schema: the checked-in
 * lib/protocol-types/generated/*.ts must be what the generator makes of the built-in plugins'
 * schema today (run `npm run protocol-types` after changing a command or an event).
 */
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILTIN_PLUGINS } from "../cli/builtins.js";
import { createHost, protocolSchema } from "../host/index.js";
import { silentLogger } from "../kernel/index.js";
import { GENERATED_FILES, generateProtocolTypes, typeOf } from "../scripts/protocol-types.mjs";
import { tempDir } from "./helpers/temp.js";

describe("generated protocol types", () => {
  it("are current with the built-in plugins' schema", async () => {
    const dir = tempDir("atomic-types-");
    const host = await createHost({ cwd: dir, agentDir: dir, env: {}, plugins: BUILTIN_PLUGINS, userPlugins: false, readSettingsFiles: false, log: silentLogger });
    const expected = generateProtocolTypes(protocolSchema(host.kernel));
    await host.shutdown("exit");
    expect(Object.keys(expected)).toEqual([...GENERATED_FILES]);
    const folder = resolve(import.meta.dirname, "../lib/protocol-types/generated");
    expect(readdirSync(folder).sort()).toEqual(GENERATED_FILES.map((file) => `${file}.ts`).sort());
    for (const file of GENERATED_FILES) {
      const checkedIn = readFileSync(resolve(folder, `${file}.ts`), "utf8");
      expect(checkedIn === expected[file], `lib/protocol-types/generated/${file}.ts is stale: run \`npm run protocol-types\``).toBe(true);
    }
  });

  it("maps the JSON Schema constructs zod emits", () => {
    expect(typeOf({ anyOf: [{ $ref: "#/$defs/Model" }, { type: "null" }] })).toBe("Model | null");
    expect(typeOf({ type: "array", items: { type: "string", enum: ["a", "b"] } })).toBe('Array<"a" | "b">');
    expect(typeOf({ type: "object", propertyNames: { type: "string" }, additionalProperties: { type: "number" } })).toBe("Record<string, number>");
    expect(typeOf({ type: "object", properties: { "a-b": { type: "boolean" } }, required: [] })).toBe('{\n  "a-b"?: boolean;\n}');
    expect(typeOf({ type: ["string", "number"] })).toBe("string | number");
    expect(typeOf({})).toBe("unknown");
    expect(typeOf({ not: {} })).toBe("never");
  });
});
