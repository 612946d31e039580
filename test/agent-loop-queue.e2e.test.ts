/**
 * Steering and follow-up over the built CLI: where queued messages land relative to tools and
 * LLM calls (checked against what each LLM call saw), both queue modes, queue_update ordering,
 * prompt's streamingBehavior, idle queueing, images, pendingMessageCount.
 */
import { afterEach, describe, expect, it } from "vitest";
import { indexOf, isType, probeLog, startAgent, textOf } from "./helpers/agent-harness.js";
import { textTurn, toolTurn, type Record_, type RpcClient } from "./helpers/rpc-client.js";

let client: RpcClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

const CALL_TURN = toolTurn("s1", "slow", { ms: 250, steps: 1 }, "Working on it.");
const CALL_CONTEXT = ["user: start", "assistant(toolUse): Working on it.[call slow]", "toolResult(slow): step 1\ndone"];

/** Starts a prompt and resolves once the first assistant delta streamed (the run is mid-stream). */
async function startStreaming(c: RpcClient): Promise<number> {
  const from = c.records.length;
  const response = await c.request({ type: "prompt", message: "start" });
  expect(response.success).toBe(true);
  await c.waitForEvent("message_update", 5000, from);
  return from;
}

/** Sends a queueing command; asserts its queue_update (with `expected`) came right before its response. */
async function queue(c: RpcClient, command: Record<string, unknown>, expected: { steering: string[]; followUp: string[] }): Promise<void> {
  const from = c.records.length;
  const response = await c.request(command);
  expect(response.success).toBe(true);
  const responseAt = c.records.indexOf(response);
  const updateAt = indexOf(c.records, isType("queue_update"), from);
  expect(updateAt).toBeGreaterThanOrEqual(0);
  expect(updateAt).toBeLessThan(responseAt);
  expect(c.records[updateAt]).toEqual({ type: "queue_update", ...expected });
}

const userStarts = (records: Record_[]) => records.filter((r) => r.type === "message_start" && (r.message as { role: string }).role === "user").map((r) => textOf(r.message));

describe("steering", () => {
  it("lands after the current turn's tool calls and before the next LLM call", async () => {
    client = startAgent({ turns: [CALL_TURN, textTurn("Steered.")], eventDelayMs: 15 });
    const from = await startStreaming(client);
    await queue(client, { type: "steer", message: "focus on X" }, { steering: ["focus on X"], followUp: [] });
    await client.waitForEvent("agent_end", 5000, from);

    expect((await probeLog(client)).contexts).toEqual([["user: start"], [...CALL_CONTEXT, "user: focus on X"]]);
    const records = client.records.slice(from);
    const toolEnd = indexOf(records, isType("tool_execution_end"));
    const firstTurnEnd = indexOf(records, isType("turn_end"));
    const secondTurnStart = indexOf(records, isType("turn_start"), firstTurnEnd);
    const dequeued = indexOf(records, (r) => r.type === "queue_update" && (r.steering as string[]).length === 0);
    const steerStart = indexOf(records, (r) => r.type === "message_start" && textOf(r.message) === "focus on X");
    const nextAssistant = indexOf(records, (r) => r.type === "message_start" && (r.message as { role: string }).role === "assistant", steerStart);
    expect([toolEnd, firstTurnEnd, secondTurnStart, dequeued, steerStart, nextAssistant]).toEqual(
      [toolEnd, firstTurnEnd, secondTurnStart, dequeued, steerStart, nextAssistant].sort((a, b) => a - b),
    );
    expect(toolEnd).toBeGreaterThan(0);
    expect(records.filter(isType("agent_start"))).toHaveLength(1);
  });

  it("one-at-a-time: two steers go into two turns", async () => {
    client = startAgent({ turns: [CALL_TURN, textTurn("A"), textTurn("B")], eventDelayMs: 15 });
    const from = await startStreaming(client);
    await queue(client, { type: "steer", message: "one" }, { steering: ["one"], followUp: [] });
    await queue(client, { type: "prompt", message: "two", streamingBehavior: "steer" }, { steering: ["one", "two"], followUp: [] });
    expect((await client.request({ type: "get_state" })).data).toMatchObject({ pendingMessageCount: 2, isStreaming: true });
    await client.waitForEvent("agent_end", 5000, from);

    expect((await probeLog(client)).contexts).toEqual([["user: start"], [...CALL_CONTEXT, "user: one"], [...CALL_CONTEXT, "user: one", "assistant(stop): A", "user: two"]]);
    const updates = client.records.slice(from).filter(isType("queue_update"));
    expect(updates.map((u) => u.steering)).toEqual([["one"], ["one", "two"], ["two"], []]);
    expect((await client.request({ type: "get_state" })).data).toMatchObject({ pendingMessageCount: 0, isStreaming: false });
  });

  it("all: two steers go into one turn", async () => {
    client = startAgent({ turns: [CALL_TURN, textTurn("Both.")], eventDelayMs: 15 });
    expect((await client.request({ type: "set_steering_mode", mode: "all" })).success).toBe(true);
    expect((await client.request({ type: "get_state" })).data).toMatchObject({ steeringMode: "all" });
    const from = await startStreaming(client);
    await queue(client, { type: "steer", message: "one" }, { steering: ["one"], followUp: [] });
    await queue(client, { type: "steer", message: "two" }, { steering: ["one", "two"], followUp: [] });
    await client.waitForEvent("agent_end", 5000, from);
    expect((await probeLog(client)).contexts).toEqual([["user: start"], [...CALL_CONTEXT, "user: one", "user: two"]]);
  });

  it("carries images into the delivered user message", async () => {
    client = startAgent({ turns: [CALL_TURN, textTurn("Seen.")], eventDelayMs: 15 });
    const image = { type: "image", data: "aW1n", mimeType: "image/jpeg" };
    const from = await startStreaming(client);
    await queue(client, { type: "steer", message: "look", images: [image] }, { steering: ["look"], followUp: [] });
    await client.waitForEvent("agent_end", 5000, from);
    const delivered = client.records.slice(from).find((r) => r.type === "message_start" && textOf(r.message) === "look") as unknown as { message: { content: unknown } };
    expect(delivered.message.content).toEqual([{ type: "text", text: "look" }, image]);
    expect((await probeLog(client)).contexts[1]!.at(-1)).toBe("user: look [image image/jpeg]");
  });
});

describe("follow-up", () => {
  it("is delivered only when the agent would otherwise stop, inside the same run", async () => {
    client = startAgent({ turns: [CALL_TURN, textTurn("First answer."), textTurn("Follow answer.")], eventDelayMs: 15 });
    const from = await startStreaming(client);
    await queue(client, { type: "prompt", message: "later", streamingBehavior: "followUp" }, { steering: [], followUp: ["later"] });
    await client.waitForEvent("agent_end", 5000, from);

    expect((await probeLog(client)).contexts).toEqual([
      ["user: start"],
      CALL_CONTEXT, // the tool turn does not pick it up
      [...CALL_CONTEXT, "assistant(stop): First answer.", "user: later"],
    ]);
    const records = client.records.slice(from);
    expect(records.filter(isType("agent_start"))).toHaveLength(1);
    const turnEnds = records.map((r, i) => (r.type === "turn_end" ? i : -1)).filter((i) => i >= 0);
    expect(indexOf(records, (r) => r.type === "message_start" && textOf(r.message) === "later")).toBeGreaterThan(turnEnds[1]!);
  });

  // Streamed one character per event: two follow-ups are queued while it streams, on a busy machine too.
  const FIRST = "A1, streamed one character at a time";
  it.each([
    ["one-at-a-time", [FIRST, "fu one", "A2", "fu two", "A3"]],
    ["all", [FIRST, "fu one", "fu two", "A2"]],
  ])("mode %s delivers the queued follow-ups accordingly", async (mode, transcript) => {
    client = startAgent({ turns: [textTurn(FIRST, FIRST.length), textTurn("A2"), textTurn("A3")], eventDelayMs: 40 });
    await client.request({ type: "set_follow_up_mode", mode });
    const from = await startStreaming(client);
    await queue(client, { type: "follow_up", message: "fu one" }, { steering: [], followUp: ["fu one"] });
    await queue(client, { type: "follow_up", message: "fu two" }, { steering: [], followUp: ["fu one", "fu two"] });
    await client.waitForEvent("agent_end", 5000, from);
    const agentEnd = client.records.slice(from).find(isType("agent_end")) as unknown as { messages: unknown[] };
    expect(agentEnd.messages.map(textOf)).toEqual(["start", ...transcript]);
    expect((await client.request({ type: "get_state" })).data).toMatchObject({ followUpMode: mode, pendingMessageCount: 0 });
  });
});

describe("queueing while idle", () => {
  it("starts no run and delivers the queued messages ahead of the next prompt", async () => {
    client = startAgent({ turns: [textTurn("Got all three.")] });
    const from = client.records.length;
    await queue(client, { type: "steer", message: "idle steer" }, { steering: ["idle steer"], followUp: [] });
    await queue(client, { type: "follow_up", message: "idle follow" }, { steering: ["idle steer"], followUp: ["idle follow"] });
    expect((await client.request({ type: "get_state" })).data).toMatchObject({ isStreaming: false, pendingMessageCount: 2 });
    expect(client.records.slice(from).filter(isType("agent_start"))).toHaveLength(0);

    const promptFrom = client.records.length;
    await client.request({ type: "prompt", message: "the prompt" });
    await client.waitForEvent("agent_end", 5000, promptFrom);
    expect((await probeLog(client)).contexts).toEqual([["user: idle steer", "user: idle follow", "user: the prompt"]]);
    const records = client.records.slice(promptFrom);
    expect(records[0]).toMatchObject({ type: "response", command: "prompt", success: true });
    expect(userStarts(records)).toEqual(["idle steer", "idle follow", "the prompt"]);
    const emptied = indexOf(records, (r) => r.type === "queue_update" && (r.followUp as string[]).length === 0);
    expect(emptied).toBeGreaterThan(indexOf(records, isType("agent_start")));
    expect(emptied).toBeLessThan(indexOf(records, (r) => r.type === "message_start"));
  });
});
