import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CommandRegistry, defineCommand, type Logger, type Response } from "../kernel/index.js";
import { INVALID_COMMAND, Scheduler } from "./index.js";

function setup() {
  const commands = new CommandRegistry();
  const order: string[] = [];
  const warnings: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  commands.register(
    defineCommand({
      name: "slow",
      input: () => z.object({}),
      run: async () => {
        order.push("slow:start");
        await gate;
        order.push("slow:end");
        return { ok: 1 };
      },
    }),
  );
  commands.register(
    defineCommand({
      name: "fast",
      input: () => z.object({ n: z.number() }),
      run: ({ n }, ctx) => {
        order.push(`fast:${n}`);
        return { n, source: ctx.source, seq: ctx.seq };
      },
    }),
  );
  commands.register(defineCommand({ name: "now", lane: "immediate", input: () => z.object({}), run: () => void order.push("now") }));
  commands.register(defineCommand({ name: "reply", lane: "immediate", noResponse: true, input: () => z.object({ id: z.string() }), run: () => void order.push("reply") }));
  const log: Logger = { info() {}, warn: (m) => void warnings.push(m), error: (m) => void warnings.push(m) };
  const responses: Response[] = [];
  const scheduler = new Scheduler(commands, log);
  const submit = (record: unknown) => scheduler.submit(record, { source: "test", respond: (r) => void responses.push(r) });
  return { scheduler, submit, order, responses, warnings, release };
}

describe("scheduler", () => {
  it("runs the ordinary lane one at a time in arrival order; the immediate lane at once", async () => {
    const s = setup();
    void s.submit({ type: "slow", id: 1 });
    void s.submit({ type: "fast", id: 2, n: 1 });
    void s.submit({ type: "now", id: 3 });
    await new Promise((resolve) => setImmediate(resolve));
    expect([...s.order].sort()).toEqual(["now", "slow:start"]);
    s.release();
    await s.scheduler.idle();
    expect(s.order.slice(-2)).toEqual(["slow:end", "fast:1"]);
    expect(s.responses.map((r) => r.id)).toEqual([3, 1, 2]);
    expect(s.responses[2]).toEqual({ id: 2, type: "response", command: "fast", success: true, data: { n: 1, source: "test", seq: 2 } });
  });

  it("answers every malformed record exactly once, echoing a usable id", async () => {
    const s = setup();
    s.release();
    for (const record of [null, [1], { id: "a" }, { type: 5 }, { type: "nope", id: 7 }, { type: "fast", id: {}, n: 1 }, { type: "fast", id: "b", n: "x" }]) void s.submit(record);
    await s.scheduler.idle();
    expect(s.responses).toEqual([
      { type: "response", command: "unknown", success: false, error: INVALID_COMMAND },
      { type: "response", command: "unknown", success: false, error: INVALID_COMMAND },
      { id: "a", type: "response", command: "unknown", success: false, error: INVALID_COMMAND },
      { type: "response", command: "unknown", success: false, error: INVALID_COMMAND },
      { id: 7, type: "response", command: "nope", success: false, error: "Unknown command: nope" },
      { type: "response", command: "fast", success: false, error: "Invalid id: expected string or number" },
      { id: "b", type: "response", command: "fast", success: false, error: "Invalid n: expected number" },
    ]);
  });

  it("a reply gets no response, even when invalid (only a log line)", async () => {
    const s = setup();
    await s.submit({ type: "reply", id: "x" });
    await s.submit({ type: "reply" });
    await s.submit({ type: "reply", id: 5 });
    expect(s.order).toEqual(["reply"]);
    expect(s.responses).toEqual([]);
    expect(s.warnings).toEqual(["Ignored reply: Invalid id: expected string", "Ignored reply: Invalid id: expected string"]);
  });

  it("idle('ordinary') does not wait for immediate work", async () => {
    const commands = new CommandRegistry();
    let finish!: () => void;
    commands.register(defineCommand({ name: "forever", lane: "immediate", input: () => z.object({}), run: () => new Promise<void>((resolve) => (finish = resolve)) }));
    const scheduler = new Scheduler(commands, { info() {}, warn() {}, error() {} });
    const responses: Response[] = [];
    void scheduler.submit({ type: "forever" }, { source: "t", respond: (r) => void responses.push(r) });
    await scheduler.idle("ordinary");
    expect(responses).toEqual([]);
    finish();
    await scheduler.idle();
    expect(responses).toEqual([{ type: "response", command: "forever", success: true }]);
  });

  it("runs no ordinary record while output is congested (waiting again if it congests anew); the immediate lane still runs", async () => {
    const commands = new CommandRegistry();
    const ran: string[] = [];
    let congested: { promise: Promise<void>; drain: () => void } | undefined;
    const congest = () => {
      let drain!: () => void;
      const promise = new Promise<void>((resolve) => (drain = resolve));
      congested = { promise, drain: () => ((congested = undefined), drain()) };
    };
    commands.register(defineCommand({ name: "big", input: () => z.object({ n: z.number() }), run: ({ n }) => void (ran.push(`big:${n}`), congest()) }));
    commands.register(defineCommand({ name: "now", lane: "immediate", input: () => z.object({}), run: () => void ran.push("now") }));
    const scheduler = new Scheduler(commands, { info() {}, warn() {}, error() {} }, () => congested?.promise);
    const respond = () => undefined;
    for (let n = 1; n <= 3; n++) void scheduler.submit({ type: "big", n }, { source: "t", respond });
    void scheduler.submit({ type: "now" }, { source: "t", respond });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect([...ran].sort()).toEqual(["big:1", "now"]);
    congested!.drain();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(ran.slice(2)).toEqual(["big:2"]);
    congested!.drain();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(ran.slice(2)).toEqual(["big:2", "big:3"]);
  });
});
