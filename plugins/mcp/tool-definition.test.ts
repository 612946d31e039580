import { describe, expect, it } from "vitest";
import { mcpToolDefinition, objectSchema, permissiveDefinition } from "./tool-definition.js";

describe("MCP tools as agent tools", () => {
  it("the schema passes as an object schema with properties, $schema dropped, required kept well-formed", () => {
    expect(objectSchema({ $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { a: { type: "string" } }, required: ["a", 3] })).toEqual({
      type: "object",
      properties: { a: { type: "string" } },
      required: ["a"],
    });
    expect(objectSchema(undefined)).toEqual({ type: "object", properties: {} });
    expect(objectSchema({ anyOf: [{ required: ["x"] }] })).toEqual({ type: "object", properties: {}, anyOf: [{ required: ["x"] }] });
  });

  it("description falls back to the title, then names the tool and server; execute calls through", async () => {
    const calls: unknown[] = [];
    const definition = mcpToolDefinition("mcp__s__t", { server: "s", tool: "t", title: "  The T  " }, async (...args) => {
      calls.push(args.slice(0, 3));
      return { content: [{ type: "text", text: "ok" }] };
    });
    expect(definition.description).toBe("The T");
    expect(mcpToolDefinition("x", { server: "s", tool: "t" }, async () => ({ content: [] })).description).toBe('MCP tool t of server "s"');
    await definition.execute({ a: 1 }, { toolCallId: "c", signal: new AbortController().signal, cwd: "/", onUpdate() {} });
    expect(calls).toEqual([["s", "t", { a: 1 }]]);
    expect(permissiveDefinition(definition, { type: "object" }).description).toBe('The T\n\nArguments (JSON Schema): {"type":"object"}');
  });
});
