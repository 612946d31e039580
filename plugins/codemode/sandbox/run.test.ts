import { afterAll, describe, expect, it } from "vitest";
import { WorkerPool } from "./pool.js";
import { FUNCTION_MARK } from "./protocol.js";
import { runScript, type RunOptions } from "./run.js";

const pool = new WorkerPool();
afterAll(() => pool.close());

const run = (code: string, options: Partial<RunOptions> = {}) =>
  runScript(pool, {
    code,
    tools: [{ name: "echo-it", jsName: "echo_it", description: "Echoes" }],
    globals: ["searchTools"],
    store: {},
    workerWaitMs: 60_000,
    maxInFlight: 4,
    maxCalls: 1000,
    onCall: async (call) => (call.target === "tool" ? { echoed: call.args } : ["g", call.args]),
    ...options,
  });

describe("runScript", () => {
  it("runs an async body: tool calls, text, console, return", async () => {
    const outcome = await run(`const r = await tools.echo_it({ a: 1 }); text(r); console.log("x", 2, { b: 1 }); return [1, await searchTools("q", { limit: 2 })];`);
    expect(outcome).toMatchObject({ ok: true, value: [1, ["g", ["q", { limit: 2 }]]] });
    expect(outcome.output).toEqual([
      { type: "text", text: '{"echoed":{"a":1}}' },
      { type: "text", text: 'x 2 {"b":1}', console: true },
    ]);
  });
});

describe("a host global's arguments", () => {
  it("carry a function as the function mark, where JSON alone would drop it; tool arguments stay plain JSON", async () => {
    const outcome = await run(`return [await searchTools("q", { limit: 2, pick: () => 1, list: [Math.max] }), await tools.echo_it({ a: 1, f() {} })];`);
    const mark = { [FUNCTION_MARK]: true };
    expect(outcome).toMatchObject({ ok: true, value: [["g", ["q", { limit: 2, pick: mark, list: [mark] }]], { echoed: { a: 1 } }] });
  });
});
