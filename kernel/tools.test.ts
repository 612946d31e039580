import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ErrorCode, loadJsonSchemaSupport, ToolRegistry, toolJsonSchema, type ToolDefinition } from "./index.js";

const tool = (name: string, text: string, parameters: ToolDefinition["parameters"] = z.object({ path: z.string() })): ToolDefinition => ({
  name,
  description: `${name} tool`,
  parameters,
  execute: async () => ({ content: [{ type: "text", text }] }),
});

describe("tool registry", () => {
  it("a later registration overrides; the overridden one stays reachable for delegation", async () => {
    const tools = new ToolRegistry();
    tools.register(tool("read", "built-in"), "tools");
    tools.register(tool("read", "wrapped"), "/ext/wrap.ts");
    expect(tools.ownerOf("read")).toBe("/ext/wrap.ts");
    expect(tools.names()).toEqual(["read"]);
    const ctx = { toolCallId: "1", signal: new AbortController().signal, cwd: "/", onUpdate() {} };
    expect((await tools.get("read")!.execute({ path: "a" }, ctx)).content).toEqual([{ type: "text", text: "wrapped" }]);
    expect((await tools.overridden("read")!.execute({ path: "a" }, ctx)).content).toEqual([{ type: "text", text: "built-in" }]);
  });

  it("the active set decides what the model is offered and may call", async () => {
    const tools = new ToolRegistry();
    for (const name of ["read", "write", "bash"]) tools.register(tool(name, name));
    tools.setActive(["read"]);
    expect(tools.specs().map((s) => s.name)).toEqual(["read"]);
    expect(await tools.validate("bash", { path: "x" })).toEqual({ ok: false, error: "Tool bash not found" });
    expect(() => tools.setActive(["read", "ghost"])).toThrow(
      expect.objectContaining({ code: ErrorCode.NOT_FOUND, message: "Unknown tool: ghost (registered: read, write, bash)" }),
    );
    tools.setActive(undefined);
    expect(tools.activeNames()).toEqual(["read", "write", "bash"]);
  });

  it("after freeze only late (open-layer) registrations pass, and their schema is checked at once", async () => {
    const tools = new ToolRegistry();
    tools.freeze();
    expect(() => tools.register(tool("a", "a"))).toThrow(/frozen/);
    tools.register(tool("b", "b", { jsonSchema: { type: "object", required: ["q"] } }), "/ext.ts", { late: true });
    expect(await tools.validate("b", {})).toEqual({ ok: false, error: 'Validation failed for tool "b": Invalid q: expected a value' });
    expect(() => tools.register(tool("c", "c", { jsonSchema: "nope" } as never), "/ext.ts", { late: true })).toThrow(
      'Tool "c" from "/ext.ts": parameters.jsonSchema must be a JSON Schema object',
    );
    expect(() => tools.register({ name: "d", description: "", parameters: z.object({}) } as never, "/ext.ts", { late: true })).toThrow(
      'Tool "d" from "/ext.ts" needs an execute function',
    );
  });

  it("a JSON Schema tool is validated through zod's converter: types, enums, nesting and defaults", async () => {
    const tools = new ToolRegistry();
    const schema = {
      type: "object",
      properties: {
        path: { type: "string", description: "File" },
        mode: { type: "string", enum: ["read", "write"] },
        lines: { type: "array", items: { type: "integer" } },
        options: { type: "object", properties: { force: { type: "boolean", default: false } } },
      },
      required: ["path"],
    };
    tools.register(tool("j", "j", { jsonSchema: schema }), "/ext.ts", { late: true });
    expect(tools.specs()[0]!.parameters).toBe(schema);
    expect(await tools.validate("j", { mode: "read" })).toEqual({ ok: false, error: 'Validation failed for tool "j": Invalid path: expected a value' });
    expect(await tools.validate("j", { path: 3 })).toEqual({ ok: false, error: 'Validation failed for tool "j": Invalid path: expected string' });
    expect(await tools.validate("j", { path: "a", mode: "delete" })).toEqual({ ok: false, error: 'Validation failed for tool "j": Invalid mode: expected one of "read", "write"' });
    expect(await tools.validate("j", { path: "a", lines: [1, 2.5] })).toEqual({ ok: false, error: 'Validation failed for tool "j": Invalid lines.1: expected integer' });
    expect(await tools.validate("j", { path: "a", options: {} })).toEqual({ ok: true, args: { path: "a", options: { force: false } } });
  });

  it("prepareArguments reshapes raw arguments before validation; a throwing shim is a validation error", async () => {
    const tools = new ToolRegistry();
    const legacy = {
      ...tool("p", "p", { jsonSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } }),
      prepareArguments: (raw: unknown) => ({ path: (raw as { file?: string }).file }),
    };
    tools.register(legacy, "/ext.ts", { late: true });
    expect(await tools.validate("p", { file: "a.txt" })).toEqual({ ok: true, args: { path: "a.txt" } });
    tools.register(
      {
        ...legacy,
        prepareArguments: () => {
          throw new Error("bad shape");
        },
      },
      "/ext.ts",
      { late: true },
    );
    expect(await tools.validate("p", {})).toEqual({ ok: false, error: 'Validation failed for tool "p": preparing the arguments failed: bad shape' });
  });

  it("a JSON Schema that is not an object schema, or (with the converter loaded) that zod cannot read, fails at registration naming the tool", async () => {
    await loadJsonSchemaSupport();
    const tools = new ToolRegistry();
    const register = (jsonSchema: unknown) => () => tools.register(tool("bad", "x", { jsonSchema } as never), "/ext.ts", { late: true });
    expect(register({ type: "string" })).toThrow('Tool "bad" from "/ext.ts": parameters.jsonSchema must describe an object (type "object"), not "string"');
    expect(register({ type: "object", properties: [] })).toThrow('parameters.jsonSchema has a "properties" that is not an object');
    expect(register({ type: "object", required: "path" })).toThrow('parameters.jsonSchema has a "required" that is not an array of strings');
    expect(register({ type: "object", properties: { a: { type: "strin" } } })).toThrow("parameters.jsonSchema is not valid: Unsupported type: strin");
  });

  it("a late tool not offered (defaultActive false) gets its validator at its first call, not at registration", async () => {
    await loadJsonSchemaSupport();
    const tools = new ToolRegistry();
    const rejected = { jsonSchema: { type: "object", properties: { a: { type: "strin" } } } };
    tools.register({ ...tool("deferred", "x", rejected), exposure: "deferred", defaultActive: false }, "/ext.ts", { late: true });
    expect(await tools.validate("deferred", { a: 1 }, { nested: true })).toEqual({
      ok: false,
      error: 'Validation failed for tool "deferred": Tool "deferred" from "/ext.ts": parameters.jsonSchema is not valid: Unsupported type: strin',
    });
    // Offered once loaded: registered again, and checked then.
    expect(() => tools.register({ ...tool("deferred", "x", rejected), exposure: "deferred", defaultActive: true }, "/ext.ts", { late: true })).toThrow("Unsupported type: strin");
  });

  it("before the converter is loaded, a schema it rejects is registered and fails at the tool's first call, naming the tool", async () => {
    vi.resetModules();
    const fresh = (await import("./tools.js")) as typeof import("./tools.js");
    const tools = new fresh.ToolRegistry();
    tools.register(tool("bad", "x", { jsonSchema: { type: "object", properties: { a: { type: "strin" } } } }), "/ext.ts", { late: true });
    expect(await tools.validate("bad", { a: 1 })).toEqual({
      ok: false,
      error: 'Validation failed for tool "bad": Tool "bad" from "/ext.ts": parameters.jsonSchema is not valid: Unsupported type: strin',
    });
  });

  it("a tool module's schema is built and converted once per process; each registry gets its own JSON Schema copy", async () => {
    let built = 0;
    const shared = tool("read", "r", () => (built++, z.object({ path: z.string() })));
    const [a, b] = [new ToolRegistry(), new ToolRegistry()];
    a.register(shared);
    b.register(shared);
    const [specA, specB] = [a.specs()[0]!, b.specs()[0]!];
    expect(specA.parameters).toEqual(specB.parameters);
    expect(specA.parameters).not.toBe(specB.parameters);
    expect(built).toBe(1);
    expect(await b.validate("read", { path: 1 })).toMatchObject({ ok: false });
    // A per-kernel closure is its own schema source.
    const perKernel = (max: number) => tool("bash", "b", () => z.object({ timeout: z.number().max(max) }));
    const [c, d] = [new ToolRegistry(), new ToolRegistry()];
    c.register(perKernel(5));
    d.register(perKernel(9));
    expect([(await c.validate("bash", { timeout: 7 })).ok, (await d.validate("bash", { timeout: 7 })).ok]).toEqual([false, true]);
  });

  it("a precomputed JSON Schema is what the model is shown, without building the zod schema; validation still uses zod", async () => {
    let built = 0;
    const precomputed = { type: "object", properties: { path: { type: "string", description: "shown" } }, required: ["path"] };
    const [a, b] = [new ToolRegistry(), new ToolRegistry()];
    for (const registry of [a, b]) registry.register({ ...tool("read", "r", () => (built++, z.object({ path: z.string() }))), precomputedJsonSchema: precomputed });
    const spec = a.specs()[0]!;
    expect(spec.parameters).toEqual(precomputed);
    expect(built).toBe(0);
    // Each registry its own copy: a request hook editing one reaches nothing else.
    (spec.parameters.properties as Record<string, unknown>).path = "edited";
    expect(b.specs()[0]!.parameters).toEqual(precomputed);
    expect(precomputed.properties.path).toEqual({ type: "string", description: "shown" });
    expect(await a.validate("read", { path: 1 })).toMatchObject({ ok: false });
    expect(built).toBe(1);
    // The same for a tool read outside the registry (an inactive one, listed by extensions).
    const copy = toolJsonSchema({ ...tool("read", "r"), precomputedJsonSchema: precomputed });
    expect(copy).toEqual(precomputed);
    expect(copy).not.toBe(precomputed);
  });
});

describe("unregistering a layer's tool", () => {
  it("removes only the owner's registration; what it overrode stands again", async () => {
    const registry = new ToolRegistry();
    const tool = (name: string, text: string) => ({
      name,
      description: text,
      parameters: { jsonSchema: { type: "object", properties: {} } },
      execute: async () => ({ content: [{ type: "text" as const, text }] }),
    });
    registry.register(tool("read", "built-in"), "tools");
    registry.register(tool("read", "wrapped"), "ext", { late: true });
    registry.register(tool("mcp__s__t", "mcp"), "mcp", { late: true });
    expect(registry.unregister("read", "mcp")).toBe(false);
    expect(registry.unregister("read", "ext")).toBe(true);
    expect(registry.get("read")?.description).toBe("built-in");
    expect(registry.unregister("mcp__s__t", "mcp")).toBe(true);
    expect(registry.names()).toEqual(["read"]);
    expect(registry.specs().map((spec) => spec.name)).toEqual(["read"]);
    expect(await registry.validate("mcp__s__t", {})).toEqual({ ok: false, error: "Tool mcp__s__t not found" });
  });
});
