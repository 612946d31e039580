import { describe, expect, it } from "vitest";
import { z } from "zod";
import { emptyUsage, type AssistantMessage, type AssistantMessageEvent } from "../../../lib/llm/index.js";
import type { ToolDefinition } from "../../../kernel/index.js";
import { builtinToolFactories } from "./builtin-tools.js";
import { createAssistantMessageEventStream } from "./event-stream.js";
import { serializeConversation } from "./helpers.js";
import { StringEnum } from "./pi-ai.js";
import { Type } from "./typebox.js";

describe("Atomic's typebox", () => {
  it("builds plain JSON Schema; Optional leaves a property out of required without showing in JSON", () => {
    const schema = Type.Object(
      {
        path: Type.String({ description: "File" }),
        limit: Type.Optional(Type.Integer({ minimum: 1 })),
        mode: Type.Union([Type.Literal("a"), Type.Literal(2)]),
        tags: Type.Array(Type.String()),
        kind: StringEnum(["x", "y"] as const, { description: "Kind" }),
        pair: Type.Tuple([Type.String(), Type.Number()]),
        map: Type.Record(Type.String(), Type.Boolean()),
        any: Type.Any(),
      },
      { additionalProperties: false },
    );
    expect(JSON.parse(JSON.stringify(schema))).toEqual({
      type: "object",
      properties: {
        path: { type: "string", description: "File" },
        limit: { type: "integer", minimum: 1 },
        mode: {
          anyOf: [
            { const: "a", type: "string" },
            { const: 2, type: "number" },
          ],
        },
        tags: { type: "array", items: { type: "string" } },
        kind: { type: "string", enum: ["x", "y"], description: "Kind" },
        pair: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], minItems: 2, maxItems: 2 },
        map: { type: "object", additionalProperties: { type: "boolean" } },
        any: {},
      },
      required: ["path", "mode", "tags", "kind", "pair", "map", "any"],
      additionalProperties: false,
    });
    expect(z.fromJSONSchema(JSON.parse(JSON.stringify(schema))).safeParse({ path: "a", mode: 2, tags: [], kind: "x", pair: ["a", 1], map: {}, any: null }).success).toBe(true);
  });

  it("Enum takes a list or a TypeScript enum object; Partial drops required", () => {
    enum Numeric {
      A,
      B,
    }
    expect(Type.Enum(["a", "b"])).toEqual({ enum: ["a", "b"] });
    expect(Type.Enum(Numeric as unknown as Record<string, number>)).toEqual({ enum: [0, 1] });
    expect(Type.Partial(Type.Object({ a: Type.String() }))).toEqual({ type: "object", properties: { a: { type: "string" } } });
  });
});

describe("AssistantMessageEventStream", () => {
  const message: AssistantMessage = {
    role: "assistant",
    content: [{ type: "text", text: "hi" }],
    api: "x",
    provider: "p",
    model: "m",
    usage: emptyUsage(),
    stopReason: "stop",
    timestamp: 1,
  };
  it("buffers pushed events for a late reader, ends at done, and resolves result()", async () => {
    const stream = createAssistantMessageEventStream();
    stream.push({ type: "start", partial: message });
    stream.push({ type: "text_delta", contentIndex: 0, delta: "hi", partial: message });
    const reading = (async () => {
      const seen: string[] = [];
      for await (const event of stream) seen.push(event.type);
      return seen;
    })();
    stream.push({ type: "done", reason: "stop", message, partial: message });
    stream.push({ type: "text_delta", contentIndex: 0, delta: "ignored", partial: message } as AssistantMessageEvent);
    expect(await reading).toEqual(["start", "text_delta", "done"]);
    expect(await stream.result()).toBe(message);
  });

  it("end() releases a waiting reader", async () => {
    const stream = createAssistantMessageEventStream();
    const reading = (async () => {
      for await (const _event of stream) return "event";
      return "ended";
    })();
    stream.end(message);
    expect(await reading).toBe("ended");
    expect(await stream.result()).toBe(message);
  });
});

describe("built-in tool wrappers", () => {
  const seen: { args: unknown; cwd: string }[] = [];
  const bash: ToolDefinition = {
    name: "bash",
    description: "Run a command",
    parameters: () => z.object({ command: z.string(), timeout: z.number().optional() }),
    execute: async (args, ctx) => {
      seen.push({ args, cwd: ctx.cwd });
      return { content: [{ type: "text", text: "ran" }] };
    },
  };
  const factories = builtinToolFactories(() => new Map([["bash", bash]]));

  it("wrap the built-in: JSON Schema parameters, validation, commandPrefix and spawnHook (command, cwd, env as exports)", async () => {
    const tool = factories.createBashTool("/work", {
      commandPrefix: "set -e",
      spawnHook: ({ command, cwd, env }) => ({ command: `source ~/.profile\n${command}`, cwd: `${cwd}/sub`, env: { ...env, GREETING: "it's me" } }),
    });
    expect(tool.parameters).toEqual({
      type: "object",
      properties: { command: { type: "string" }, timeout: { type: "number" } },
      required: ["command"],
      additionalProperties: false,
    });
    await tool.execute("id", { command: "ls" } as never, undefined, undefined, undefined as never);
    expect(seen.at(-1)).toEqual({ args: { command: "export GREETING='it'\\''s me'\nsource ~/.profile\nset -e\nls" }, cwd: "/work/sub" });
    await expect(tool.execute("id", { command: 5 } as never, undefined, undefined, undefined as never)).rejects.toThrow(
      'Validation failed for tool "bash": Invalid command: expected string',
    );
  });

  it("custom operations and missing built-ins fail clearly", () => {
    expect(() => factories.createBashTool("/", { operations: {} })).toThrow("createBashTool: custom operations (a remote or virtual backend) are not supported by Atomic");
    expect(() => factories.createReadTool("/")).toThrow('createReadTool: Atomic has no built-in "read" tool in this process');
  });
});

describe("serializeConversation", () => {
  it("labels each message", () => {
    const text = serializeConversation([
      { role: "user", content: "hello", timestamp: 1 },
      {
        role: "assistant",
        content: [
          { type: "text", text: "calling" },
          { type: "toolCall", id: "c", name: "ls", arguments: { path: "." } },
        ],
        api: "x",
        provider: "p",
        model: "m",
        usage: emptyUsage(),
        stopReason: "toolUse",
        timestamp: 2,
      },
      { role: "toolResult", toolCallId: "c", toolName: "ls", content: [{ type: "text", text: "a.txt" }], isError: false, timestamp: 3 },
    ]);
    expect(text).toBe('[User]: hello\n\n[Assistant]: calling\n\n[Tool call]: ls({"path":"."})\n\n[Tool result] ls: a.txt');
  });
});
