import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ErrorCode, ToolRegistry, type ToolDefinition } from "./index.js";

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

  it("the active set decides what the model is offered and may call", () => {
    const tools = new ToolRegistry();
    for (const name of ["read", "write", "bash"]) tools.register(tool(name, name));
    tools.setActive(["read"]);
    expect(tools.specs().map((s) => s.name)).toEqual(["read"]);
    expect(tools.validate("bash", { path: "x" })).toEqual({ ok: false, error: "Tool bash not found" });
    expect(() => tools.setActive(["read", "ghost"])).toThrow(expect.objectContaining({ code: ErrorCode.NOT_FOUND, message: "Unknown tool: ghost (registered: read, write, bash)" }));
    tools.setActive(undefined);
    expect(tools.activeNames()).toEqual(["read", "write", "bash"]);
  });

  it("after freeze only late (open-layer) registrations pass, and their schema is checked at once", () => {
    const tools = new ToolRegistry();
    tools.freeze();
    expect(() => tools.register(tool("a", "a"))).toThrow(/frozen/);
    tools.register(tool("b", "b", { jsonSchema: { type: "object", required: ["q"] } }), "/ext.ts", { late: true });
    expect(tools.validate("b", {})).toEqual({ ok: false, error: 'Validation failed for tool "b": Invalid q: expected a value' });
    expect(() => tools.register(tool("c", "c", { jsonSchema: "nope" } as never), "/ext.ts", { late: true })).toThrow('Tool "c" from "/ext.ts": parameters.jsonSchema must be a JSON Schema object');
    expect(() => tools.register({ name: "d", description: "", parameters: z.object({}) } as never, "/ext.ts", { late: true })).toThrow('Tool "d" from "/ext.ts" needs an execute function');
  });

  it("a tool module's schema is built and converted once per process; each registry gets its own JSON Schema copy", () => {
    let built = 0;
    const shared = tool("read", "r", () => (built++, z.object({ path: z.string() })));
    const [a, b] = [new ToolRegistry(), new ToolRegistry()];
    a.register(shared);
    b.register(shared);
    const [specA, specB] = [a.specs()[0]!, b.specs()[0]!];
    expect(specA.parameters).toEqual(specB.parameters);
    expect(specA.parameters).not.toBe(specB.parameters);
    expect(built).toBe(1);
    expect(b.validate("read", { path: 1 })).toMatchObject({ ok: false });
    // A per-kernel closure is its own schema source.
    const perKernel = (max: number) => tool("bash", "b", () => z.object({ timeout: z.number().max(max) }));
    const [c, d] = [new ToolRegistry(), new ToolRegistry()];
    c.register(perKernel(5));
    d.register(perKernel(9));
    expect([c.validate("bash", { timeout: 7 }).ok, d.validate("bash", { timeout: 7 }).ok]).toEqual([false, true]);
  });
});
