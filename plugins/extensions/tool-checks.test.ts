/**
 * An extension tool's slips, as its author and the model see them: a result of the wrong shape,
 * parameters that are no object schema, and one name registered twice by the same extension.
 */
import { Type as SinclairType } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import type { ExtensionHost } from "./host.js";
import { loadJsonSchemaSupport, type OutEvent } from "../../kernel/index.js";
import { bootClosingAfterEach, type Answer, type Harness } from "./harness.test-support.js";
import { adaptTool } from "./tool-adapter.js";
import { Type } from "./compat/typebox.js";
import type { ToolDefinition } from "./types/api.js";

const boot = bootClosingAfterEach();
const errors = (h: Harness) => h.events.filter((e) => e.type === "extension_error") as OutEvent<"extension_error">[];
/** The tool results (what the model is sent), as [isError, text]. */
const toolResults = (h: Harness) =>
  (h.events.filter((e) => e.type === "tool_execution_end") as OutEvent<"tool_execution_end">[]).map((e) => [
    e.isError,
    (e.result as { content: { text?: string }[] }).content.map((part) => part.text ?? "").join(""),
  ]);
const parameters = { type: "object", properties: {} };
const SHAPE = '{ content: [{ type: "text", text }] }';

describe("a tool's result of the wrong shape", () => {
  const cases: [string, unknown, string][] = [
    ["str", "just a string", 'a string ("just a string")'],
    ["text", { text: "hello" }, 'an object without "content" (it has text)'],
    ["contents", { contents: [] }, 'an object without "content" (it has "contents": did you mean "content"?)'],
    ["flat", { content: "a string" }, 'an object whose "content" is a string, not an array'],
    ["nul", null, "null"],
    ["undef", undefined, "undefined"],
  ];

  it("tells the model the result was invalid and the author (once per tool) what it returned and the shape expected", async () => {
    const answers: Answer[] = [...cases, ...cases].map(([name]) => ({ tool: name, args: {} }));
    const h = await boot([(pi) => cases.forEach(([name, result]) => pi.registerTool({ name, description: "d", parameters, execute: async () => result as never }))], {
      answers: [...answers, "done"],
    });
    await h.run("go");
    expect(toolResults(h)).toEqual([...cases, ...cases].map(([name, , problem]) => [true, `Tool "${name}" returned an invalid result: ${problem}; expected ${SHAPE}`]));
    expect(errors(h).map((e) => [e.event, e.error])).toEqual(
      cases.map(([name, , problem]) => [`tool:${name}`, `execute of tool "${name}" returned ${problem}; it must return ${SHAPE}`]),
    );
    expect(h.warnings.filter((line) => line.includes("returned"))).toHaveLength(cases.length);
  });

  it("leaves a valid result as it was, an empty content array included", async () => {
    const h = await boot(
      [
        (pi) => {
          pi.registerTool({ name: "ok", description: "d", parameters, execute: async () => ({ content: [{ type: "text", text: "fine" }], details: { n: 1 } }) });
          pi.registerTool({ name: "empty", description: "d", parameters, execute: async () => ({ content: [] }) });
        },
      ],
      { answers: [{ tool: "ok", args: {} }, { tool: "empty", args: {} }, "done"] },
    );
    await h.run("go");
    expect(toolResults(h)).toEqual([
      [false, "fine"],
      [false, ""],
    ]);
    expect(errors(h)).toEqual([]);
  });
});

describe("a tool's parameters", () => {
  const adapt = (schema: unknown) => () =>
    adaptTool({} as ExtensionHost, "/ext/t.ts", { name: "t", description: "d", parameters: schema, execute: async () => ({ content: [] }) } as ToolDefinition<any>);

  it("must be an object schema: a map of properties is named, with how to wrap it", async () => {
    expect(adapt({ path: { type: "string" } })).toThrow(
      'registerTool("t"): parameters must be an object schema, not a map of properties (path): wrap it: Type.Object({...}) or { type: "object", properties: {...} }',
    );
    expect(adapt({ path: Type.String(), n: SinclairType.Number() })).toThrow(/not a map of properties \(path, n\): wrap it/);
    expect(adapt({})).toThrow('registerTool("t"): parameters must be an object schema; for a tool without parameters use Type.Object({}) or { type: "object", properties: {} }');
    expect(adapt({ properties: { path: { type: "string" } } })).toThrow('parameters must be an object schema: add type: "object" beside its properties');
    expect(adapt(SinclairType.Union([SinclairType.Object({ a: SinclairType.String() }), SinclairType.Object({ b: SinclairType.String() })]))).toThrow(
      /parameters must be an object schema \(type: "object"\); it has no type at the top \(it has anyOf\)/,
    );
    // A type other than "object" is the kernel's own check, worded as the author wrote the tool.
    expect(adapt({ type: "objekt" })).toThrow('registerTool("t"): parameters must describe an object (type "object"), not "objekt"');
    expect(adapt({ type: "object", required: "path" })).toThrow('registerTool("t"): parameters has a "required" that is not an array of strings');
    // Loaded before extensions load, as the plugin does: a schema zod cannot read fails at registration.
    await loadJsonSchemaSupport();
    expect(adapt({ type: "object", properties: { a: { type: "strin" } } })).toThrow('registerTool("t"): parameters is not valid: Unsupported type: strin');
  });

  it("TypeBox (Atomic's and the library's) and plain object schemas are accepted, and the model's arguments are validated against them", async () => {
    for (const schema of [
      Type.Object({ path: Type.String() }),
      SinclairType.Object({ path: SinclairType.String() }),
      { type: "object", properties: { path: { type: "string" } } },
    ]) {
      expect(adapt(schema)).not.toThrow();
    }
    const h = await boot(
      [
        (pi) =>
          pi.registerTool({ name: "t", description: "d", parameters: Type.Object({ path: Type.String() }), execute: async () => ({ content: [{ type: "text", text: "ran" }] }) }),
      ],
      {
        answers: [{ tool: "t", args: { path: 5 } }, { tool: "t", args: { path: "a" } }, "done"],
      },
    );
    await h.run("go");
    expect(toolResults(h)).toEqual([
      [true, 'Validation failed for tool "t": Invalid path: expected string'],
      [false, "ran"],
    ]);
  });
});

describe("one tool name registered twice", () => {
  const tool = (text: string) => ({ name: "twice", description: text, parameters, execute: async () => ({ content: [{ type: "text" as const, text }] }) });

  it("by one extension's factory: the later one is kept (as pi), and it is reported", async () => {
    const h = await boot(
      [
        (pi) => {
          pi.registerTool(tool("first"));
          pi.registerTool(tool("second"));
        },
      ],
      { answers: [{ tool: "twice", args: {} }, "done"] },
    );
    await h.run("go");
    expect(toolResults(h)).toEqual([[false, "second"]]);
    expect(errors(h)).toEqual([
      {
        type: "extension_error",
        extensionPath: h.paths[0],
        event: "register_tool",
        error: `Tool "twice" is registered twice by ${h.paths[0]}; the later registration replaces the earlier one`,
      },
    ]);
  });

  it("again once loaded: an update (pi-mcp-adapter re-registers its tools so), replaced without a report", async () => {
    const h = await boot(
      [
        (pi) => {
          pi.registerTool(tool("first"));
          pi.on("session_start", () => pi.registerTool(tool("updated")));
        },
      ],
      { answers: [{ tool: "twice", args: {} }, "done"] },
    );
    await h.run("go");
    expect(toolResults(h)).toEqual([[false, "updated"]]);
    expect(errors(h)).toEqual([]);
  });
});
