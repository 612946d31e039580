import { describe, expect, it } from "vitest";
import { renderProtocolDocs, typeOf, undocumented } from "./index.js";

describe("protocol docs", () => {
  it("renders type expressions from JSON Schema", () => {
    expect(typeOf({ type: "string" })).toBe("string");
    expect(typeOf({ enum: ["a", "b"] })).toBe('`"a"` \\| `"b"`');
    expect(typeOf({ anyOf: [{ $ref: "#/$defs/Model" }, { type: "null" }] })).toBe("[Model](#model) \\| null");
    expect(typeOf({ type: "array", items: { anyOf: [{ type: "string" }, { type: "number" }] } })).toBe("(string \\| number)[]");
    expect(typeOf({ type: "object", properties: { a: {}, b: {} }, required: ["a"] })).toBe("{a, b?}");
    expect(typeOf({ description: "anything" })).toBe("any");
  });

  it("renders a command, its response and an event, with fields and lanes", () => {
    const schema = {
      description: "Test protocol.",
      $defs: {
        PingCommand: {
          type: "object",
          description: "Ping. Immediate lane: handled as soon as read.",
          properties: { type: { const: "ping" }, id: {}, n: { type: "number", description: "How many." } },
          required: ["type", "n"],
        },
        PingResponse: { type: "object", properties: { command: { const: "ping" }, data: { type: "object", properties: { pong: { type: "boolean" } }, required: ["pong"] } } },
        PongEvent: { type: "object", description: "A pong.", properties: { type: { const: "pong" } } },
        Command: { oneOf: [{ $ref: "#/$defs/PingCommand" }] },
        Response: { oneOf: [{ $ref: "#/$defs/PingResponse" }] },
        Event: { oneOf: [{ $ref: "#/$defs/PongEvent" }] },
        Thing: { type: "string", description: "A thing." },
      },
    };
    const page = renderProtocolDocs(schema);
    expect(page).toContain("| [`ping`](#ping) | immediate | {pong} |");
    expect(page).toContain("| `n` | number | yes | How many. |");
    expect(page).toContain("### `pong`\n\nA pong.");
    expect(page).toContain("### Thing\n\nA thing.\n\nstring");
    expect(page.endsWith("\n")).toBe(true);
  });

  it("renders an event whose shapes are a union: one sub-section per shape, titled by its discriminator", () => {
    const shape = (method: string, extra: Record<string, unknown>) => ({
      type: "object",
      description: `The ${method} shape.`,
      properties: { type: { const: "ask" }, id: { type: "string" }, method: { const: method }, ...extra },
      required: ["type", "id", "method", ...Object.keys(extra)],
    });
    const schema = {
      description: "Test protocol.",
      $defs: {
        AskEvent: { description: "Asks.", anyOf: [shape("select", { options: { type: "array", items: { type: "string" } } }), shape("notify", { message: { type: "string" } })] },
        Command: { oneOf: [] },
        Response: { oneOf: [] },
        Event: { oneOf: [{ $ref: "#/$defs/AskEvent" }] },
      },
    };
    const page = renderProtocolDocs(schema);
    expect(page).toContain('### `ask`\n\nAsks.\n\n#### `method: "select"`\n\nThe select shape.\n\n| field | type | required | description |');
    expect(page).toContain("| `options` | string[] | yes |  |");
    expect(page).toContain('#### `method: "notify"`');
    expect(page).not.toContain("| `method` |");
  });

  it("renders nested fields as rows of their own and each record's example as one JSON line", () => {
    const schema = {
      description: "Test protocol.",
      $defs: {
        StatCommand: { type: "object", description: "Stats.", examples: [{ id: "1", type: "stat" }], properties: { type: { const: "stat" }, id: {} }, required: ["type"] },
        StatResponse: {
          type: "object",
          properties: {
            command: { const: "stat" },
            data: {
              type: "object",
              properties: { tokens: { type: "object", description: "Totals.", properties: { input: { type: "number", description: "In." } }, required: ["input"] } },
              required: ["tokens"],
            },
          },
        },
        Command: { oneOf: [{ $ref: "#/$defs/StatCommand" }] },
        Response: { oneOf: [{ $ref: "#/$defs/StatResponse" }] },
        Event: { oneOf: [] },
      },
    };
    const page = renderProtocolDocs(schema);
    expect(page).toContain('Example:\n\n```json\n{"id":"1","type":"stat"}\n```');
    expect(page).toContain("| `tokens` | {input} | yes | Totals. |\n| `tokens.input` | number | yes | In. |");
  });

  it("undocumented lists fields without a description and records without an example", () => {
    const schema = {
      $defs: {
        PingCommand: {
          type: "object",
          properties: { type: { const: "ping" }, n: { type: "number" }, m: { type: "object", description: "M.", properties: { k: { type: "string" } } } },
        },
        PongEvent: { type: "object", examples: [{ type: "pong" }], properties: { type: { const: "pong" } } },
        Thing: { type: "object", properties: { a: { type: "string", description: "A." } } },
        Command: { oneOf: [{ $ref: "#/$defs/PingCommand" }] },
        Response: { oneOf: [] },
        Event: { oneOf: [{ $ref: "#/$defs/PongEvent" }] },
      },
    };
    expect(undocumented(schema)).toEqual(["PingCommand.n", "PingCommand.m.k", "Thing: no description", "PingCommand: no example"]);
  });
});
