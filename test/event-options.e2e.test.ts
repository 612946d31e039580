/**
 * Event options over the built CLI: `message_update` deltas on a long answer (concatenated
 * deltas equal the final text, bytes grow linearly, pi 1.x's `usage` on each), `agent_settled`
 * (on by default, as pi 1.x) after a plain prompt, a retry, queued follow-ups, never for an
 * extension-style command handled without a run, never once turned off, the bad input a client
 * can send, and the `eventOptions` setting a client starts with.
 */
import { afterEach, describe, expect, it } from "vitest";
import { errorTurn, isType, startAgent, waitIdle } from "./helpers/agent-harness.js";
import { textTurn, toolTurn, type Record_, type RpcClient } from "./helpers/rpc-client.js";

let client: RpcClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

const DEFAULTS = { messageUpdates: "full", agentSettled: true };

/** Sends a prompt and returns the records from it up to its agent_settled. */
async function promptUntilSettled(c: RpcClient, message: string): Promise<Record_[]> {
  const from = c.records.length;
  expect((await c.request({ type: "prompt", message })).success).toBe(true);
  const settled = await c.waitForEvent("agent_settled", 10_000, from);
  return c.records.slice(from, c.records.indexOf(settled) + 1);
}

describe("set_event_options", () => {
  it("answers with every option in force; each field is optional and a second call keeps the first's", async () => {
    client = startAgent({ turns: [] });
    expect(await client.ok({ type: "set_event_options" })).toEqual(DEFAULTS);
    expect(await client.ok({ type: "set_event_options", agentSettled: false })).toEqual({ messageUpdates: "full", agentSettled: false });
    expect(await client.ok({ type: "set_event_options", messageUpdates: "delta" })).toEqual({ messageUpdates: "delta", agentSettled: false });
    expect(await client.ok({ type: "set_event_options", messageUpdates: "full", agentSettled: true })).toEqual(DEFAULTS);
  });

  it("bad values name the field and change nothing", async () => {
    client = startAgent({ turns: [] });
    await client.ok({ type: "set_event_options", agentSettled: true });
    const wrongValue = await client.request({ type: "set_event_options", messageUpdates: "partial" }, 20_000, { unchecked: true });
    expect(wrongValue).toMatchObject({ command: "set_event_options", success: false });
    expect(wrongValue.error).toMatch(/^Invalid messageUpdates: /);
    expect(wrongValue.error).toContain('"delta"');
    const wrongType = await client.request({ type: "set_event_options", agentSettled: "yes" }, 20_000, { unchecked: true });
    expect(wrongType).toMatchObject({ success: false, error: "Invalid agentSettled: expected boolean" });
    expect(await client.ok({ type: "set_event_options" })).toEqual({ messageUpdates: "full", agentSettled: true });
  });

  it("default stream: message_update carries the partial message twice (the protocol's snapshots) and pi's usage; agent_settled once per prompt", async () => {
    client = startAgent({ turns: [errorTurn("503 Service Unavailable"), textTurn("Hello there", 3)], settings: { retry: { baseDelayMs: 5 } } });
    const from = client.records.length;
    await client.ok({ type: "prompt", message: "retry me" });
    await client.waitForEvent("auto_retry_end", 10_000, from);
    await client.waitForEvent("agent_settled", 10_000, from);
    const updates = client.records.slice(from).filter(isType("message_update"));
    expect(updates.length).toBeGreaterThan(0);
    for (const update of updates) {
      expect(update.message).toBeDefined();
      expect((update.assistantMessageEvent as Record_).partial).toEqual(update.message);
      expect(update.usage).toEqual((update.message as Record_).usage);
    }
    expect(client.records.filter(isType("agent_settled"))).toEqual([{ type: "agent_settled", aborted: false }]);
  });

  it("agentSettled: false turns agent_settled off", async () => {
    client = startAgent({ turns: [textTurn("One")] });
    await client.ok({ type: "set_event_options", agentSettled: false });
    const from = client.records.length;
    await client.ok({ type: "prompt", message: "first" });
    await client.waitForEvent("agent_end", 10_000, from);
    await waitIdle(client);
    expect((await client.ok({ type: "get_state" })).isStreaming).toBe(false);
    expect(client.records.filter(isType("agent_settled"))).toEqual([]);
  });
});

describe("messageUpdates: delta", () => {
  it("a long answer: deltas without snapshots, concatenated equal to the final text, output linear in the answer", async () => {
    const answer = Array.from({ length: 2000 }, (_, i) => `word${i} `).join("");
    client = startAgent({ turns: [textTurn(answer, 2000)] });
    await client.ok({ type: "set_event_options", messageUpdates: "delta" });
    const from = client.records.length;
    const bytesBefore = client.stdoutBytes;
    await client.ok({ type: "prompt", message: "long" });
    await client.waitForEvent("agent_end", 20_000, from);
    const records = client.records.slice(from);
    const updates = records.filter(isType("message_update"));
    expect(updates.length).toBeGreaterThanOrEqual(1000);
    for (const update of updates) {
      // pi 1.x's wire form: the event without its snapshot, and the usage so far.
      expect(Object.keys(update)).toEqual(["type", "usage", "assistantMessageEvent"]);
      expect(update.assistantMessageEvent).not.toHaveProperty("partial");
    }
    const text = updates
      .map((u) => u.assistantMessageEvent as Record_)
      .filter((e) => e.type === "text_delta")
      .map((e) => e.delta)
      .join("");
    expect(text).toBe(answer);
    // message_start/message_end still carry whole messages.
    const end = records.filter(isType("message_end")).at(-1)!;
    expect((end.message as { content: { text: string }[] }).content[0]!.text).toBe(answer);
    // Linear: every byte of the answer is written a small constant number of times (deltas,
    // text_end, message_end, turn_end, agent_end), not once per delta; each delta adds its
    // usage (pi 1.x's wire form, a fixed-size object).
    const usageBytes = Buffer.byteLength(JSON.stringify(updates[0]!.usage)) + 10;
    expect(client.stdoutBytes - bytesBefore).toBeLessThan(answer.length * 20 + updates.length * usageBytes);
  });

  it("switched while a run streams: applies from the next record", async () => {
    client = startAgent({ turns: [textTurn("abcdefghijklmnopqrstuvwxyz", 26)], eventDelayMs: 15 });
    const from = client.records.length;
    await client.ok({ type: "prompt", message: "go" });
    await client.waitForEvent("message_update", 10_000, from);
    const answered = await client.request({ type: "set_event_options", messageUpdates: "delta" });
    await client.waitForEvent("agent_end", 10_000, from);
    const at = client.records.indexOf(answered);
    const updates = (slice: Record_[]) => slice.filter(isType("message_update"));
    expect(updates(client.records.slice(from, at)).every((u) => u.message !== undefined)).toBe(true);
    const after = updates(client.records.slice(at));
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((u) => u.message === undefined)).toBe(true);
  });
});

describe("the eventOptions setting", () => {
  it("is what the client starts with (pi 1.x's form from the first record, a toolcall_start naming its call); set_event_options still changes it", async () => {
    const settings = { eventOptions: { messageUpdates: "delta", agentSettled: false } };
    client = startAgent({ turns: [toolTurn("call_1", "read", { path: "missing.txt" }), textTurn("Done")], settings });
    const from = client.records.length;
    await client.ok({ type: "prompt", message: "read it" });
    await client.waitForEvent("agent_end", 10_000, from);
    await waitIdle(client);
    const updates = client.records.slice(from).filter(isType("message_update"));
    expect(updates.length).toBeGreaterThan(3);
    for (const update of updates) expect(Object.keys(update)).toEqual(["type", "usage", "assistantMessageEvent"]);
    const events = updates.map((update) => update.assistantMessageEvent as Record_);
    expect(events.filter((event) => "partial" in event)).toEqual([]);
    expect(events.filter((event) => event.type === "toolcall_start")).toEqual([{ type: "toolcall_start", contentIndex: 0, id: "call_1", toolName: "read" }]);
    expect(client.records.filter(isType("agent_settled"))).toEqual([]);
    expect(await client.ok({ type: "set_event_options", messageUpdates: "full" })).toEqual({ messageUpdates: "full", agentSettled: false });
  });
});

describe("agentSettled", () => {
  it("once per prompt, after its last agent_end", async () => {
    client = startAgent({ turns: [textTurn("One"), textTurn("Two")] });
    for (const message of ["first", "second"]) {
      const records = await promptUntilSettled(client, message);
      expect(records.filter(isType("agent_settled"))).toHaveLength(1);
      expect(records.findLastIndex(isType("agent_end"))).toBe(records.length - 2);
    }
  });

  it("after a retry: not between the failed run and its retry, once after the good answer", async () => {
    client = startAgent({ turns: [errorTurn("503 Service Unavailable"), textTurn("Recovered")], settings: { retry: { baseDelayMs: 20 } } });
    const records = await promptUntilSettled(client, "go");
    expect(records.filter(isType("agent_start"))).toHaveLength(2);
    expect(records.findIndex(isType("auto_retry_end"))).toBeLessThan(records.length - 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(client.records.filter(isType("agent_settled"))).toHaveLength(1);
  });

  it("after queued follow-ups: once, when the last one is answered", async () => {
    client = startAgent({ turns: [textTurn("A1", 6), textTurn("A2"), textTurn("A3")], eventDelayMs: 30 });
    const from = client.records.length;
    await client.ok({ type: "prompt", message: "start" });
    await client.waitForEvent("message_update", 10_000, from);
    await client.ok({ type: "follow_up", message: "one" });
    await client.ok({ type: "follow_up", message: "two" });
    const settled = await client.waitForEvent("agent_settled", 10_000, from);
    const records = client.records.slice(from, client.records.indexOf(settled) + 1);
    const assistantEnds = records.filter((r) => r.type === "message_end" && (r.message as { role: string }).role === "assistant");
    expect(assistantEnds).toHaveLength(3);
    expect(records.filter(isType("agent_settled"))).toHaveLength(1);
    expect((await client.ok({ type: "get_state" })).isStreaming).toBe(false);
  });
});

describe("agentSettled without a run", () => {
  it('a prompt handled by an input tap answers disposition "handled" and no agent_settled follows (pi 1.x)', async () => {
    client = startAgent({ turns: [textTurn("after")] });
    const from = client.records.length;
    const response = await client.request({ type: "prompt", message: "/probe-handled" });
    expect(response).toMatchObject({ success: true, data: { disposition: "handled" } });
    // The next prompt's run is the first to settle: nothing was left over from the handled one.
    const records = await promptUntilSettled(client, "now a real one");
    expect(records[0]).toMatchObject({ type: "response", data: { disposition: "started" } });
    expect(client.records.slice(from).filter(isType("agent_settled"))).toHaveLength(1);
    expect(client.records.slice(from, client.records.indexOf(records[0]!)).filter(isType("agent_start"))).toEqual([]);
  });
});
