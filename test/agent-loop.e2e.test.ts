/**
 * The agent loop over the built CLI: the full event sequence of a prompt with a tool call,
 * message_update snapshots, tool results (errors, veto, rewrite), images, get_state, and the
 * prompt-while-streaming rejection. The model is a replay cassette; tools come from loop-probe.
 */
import { afterEach, describe, expect, it } from "vitest";
import { callsTurn, eventTypes, indexOf, isType, probeLog, promptAndSettle, startAgent, textOf } from "./helpers/agent-harness.js";
import { textTurn, toolTurn, type RpcClient } from "./helpers/rpc-client.js";

const STREAMING_ERROR = "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.";

let client: RpcClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

/** Collapses runs of message_update so sequences read like the protocol's. */
function collapse(types: string[]): string[] {
  return types.filter((type, i) => type !== "message_update" || types[i - 1] !== "message_update");
}

describe("a prompt with a tool call", () => {
  it("emits the full event sequence in order, with the response first", async () => {
    client = startAgent({ turns: [toolTurn("call_1", "echo", { text: "hi" }, "Let me echo."), textTurn("All done here.")] });
    const { response, from } = await promptAndSettle(client, "go");
    expect(response.success).toBe(true);
    const records = client.records.slice(from);
    expect(records[0]).toMatchObject({ type: "response", command: "prompt", success: true });
    expect(collapse(eventTypes(records))).toEqual([
      "agent_start",
      "turn_start",
      "message_start",
      "message_end", // user
      "message_start",
      "message_update",
      "message_end", // assistant with the call
      "tool_execution_start",
      "tool_execution_end",
      "message_start",
      "message_end", // toolResult
      "turn_end",
      "turn_start",
      "message_start",
      "message_update",
      "message_end", // final answer
      "turn_end",
      "agent_end",
      "agent_settled",
    ]);
    // 3 text events + toolcall start, 2 deltas, end; then text_start, 3 deltas, text_end.
    expect(eventTypes(records).filter((t) => t === "message_update")).toHaveLength(12);

    const start = records.find(isType("tool_execution_start"))!;
    expect(start).toEqual({ type: "tool_execution_start", toolCallId: "call_1", toolName: "echo", args: { text: "hi" } });
    const end = records.find(isType("tool_execution_end"))!;
    expect(end).toEqual({
      type: "tool_execution_end",
      toolCallId: "call_1",
      toolName: "echo",
      result: { content: [{ type: "text", text: "echo: hi" }], details: { length: 2 } },
      isError: false,
      durationMs: expect.any(Number),
    });
    expect(records.filter(isType("message_update")).every((r) => typeof (r.usage as { totalTokens?: unknown }).totalTokens === "number")).toBe(true);

    const turnEnds = records.filter(isType("turn_end"));
    const firstTurn = turnEnds[0] as unknown as { message: { stopReason: string }; toolResults: { toolCallId: string; role: string }[] };
    expect(firstTurn.message.stopReason).toBe("toolUse");
    expect(firstTurn.toolResults.map((r) => [r.role, r.toolCallId])).toEqual([["toolResult", "call_1"]]);
    expect((turnEnds[1] as unknown as { toolResults: unknown[] }).toolResults).toEqual([]);

    const agentEnd = records.find(isType("agent_end")) as unknown as { messages: { role: string }[] };
    expect(agentEnd.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(textOf(agentEnd.messages[3])).toBe("All done here.");

    // The second LLM call saw the tool result right after the call.
    expect((await probeLog(client)).contexts).toEqual([["user: go"], ["user: go", "assistant(toolUse): Let me echo.[call echo]", "toolResult(echo): echo: hi"]]);
    expect((await client.request({ type: "get_last_assistant_text" })).data).toEqual({ text: "All done here." });
  });

  it("sends message_update with a snapshot that matches its own delta", async () => {
    client = startAgent({ turns: [textTurn("The quick brown fox jumps over the lazy dog.", 6)] });
    const { from } = await promptAndSettle(client, "go");
    const updates = client.records.slice(from).filter(isType("message_update")) as unknown as {
      message: { role: string; content: { type: string; text: string }[] };
      assistantMessageEvent: { type: string; contentIndex: number; delta?: string; content?: string; partial: unknown };
    }[];
    expect(updates.map((u) => u.assistantMessageEvent.type)).toEqual(["text_start", ...Array(6).fill("text_delta"), "text_end"]);
    let text = "";
    for (const update of updates) {
      expect(update.message.role).toBe("assistant");
      expect(update.assistantMessageEvent.partial).toEqual(update.message);
      if (update.assistantMessageEvent.type === "text_delta") text += update.assistantMessageEvent.delta;
      expect(update.message.content[0]!.text).toBe(text);
    }
    expect(updates.at(-1)!.assistantMessageEvent.content).toBe("The quick brown fox jumps over the lazy dog.");
    const final = client.records.slice(from).filter(isType("message_end")).at(-1) as unknown as { message: unknown };
    expect(textOf(final.message)).toBe(text);
  });
});

describe("tool results", () => {
  it("turns unknown tools, bad arguments, throws and vetoes into error results, in call order, and goes on", async () => {
    const calls = [
      { id: "c1", name: "nope", args: {} },
      { id: "c2", name: "echo", args: { wrong: 1 } },
      { id: "c3", name: "fail", args: {} },
      { id: "c4", name: "echo", args: { text: "veto" } },
      { id: "c5", name: "echo", args: { text: "rewrite" } },
      { id: "c6", name: "echo", args: { text: "plain" } },
    ];
    client = startAgent({ turns: [callsTurn(calls), textTurn("Recovered.")] });
    const { from } = await promptAndSettle(client, "go");
    const records = client.records.slice(from);

    const ends = records.filter(isType("tool_execution_end")) as unknown as { toolCallId: string; isError: boolean; result: { content: { text: string }[] } }[];
    expect(ends.map((e) => e.toolCallId)).toEqual(["c1", "c2", "c3", "c4", "c5", "c6"]);
    expect(ends.map((e) => e.isError)).toEqual([true, true, true, true, false, false]);
    const texts = ends.map((e) => e.result.content[0]!.text);
    expect(texts[0]).toBe("Tool nope not found");
    expect(texts[1]).toMatch(/^Validation failed for tool "echo": Invalid text: expected string/);
    expect(texts[2]).toBe("fail tool exploded");
    expect(texts[3]).toBe("Vetoed by loop-probe");
    expect(texts[4]).toBe("rewritten by loop-probe");
    expect(texts[5]).toBe("echo: plain");

    // Each tool's start precedes its end, and every end precedes its toolResult message.
    for (const { id } of calls) {
      const s = indexOf(records, (r) => r.type === "tool_execution_start" && r.toolCallId === id);
      const e = indexOf(records, (r) => r.type === "tool_execution_end" && r.toolCallId === id);
      const m = indexOf(records, (r) => r.type === "message_end" && (r.message as { toolCallId?: string }).toolCallId === id);
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThan(e);
      expect(e).toBeLessThan(m);
    }
    const turnEnd = records.find(isType("turn_end")) as unknown as { toolResults: { toolCallId: string }[] };
    expect(turnEnd.toolResults.map((r) => r.toolCallId)).toEqual(["c1", "c2", "c3", "c4", "c5", "c6"]);
    const agentEnd = records.find(isType("agent_end")) as unknown as { messages: unknown[] };
    expect(textOf(agentEnd.messages.at(-1))).toBe("Recovered.");
  });

  it("streams cumulative tool_execution_update between start and end", async () => {
    client = startAgent({ turns: [toolTurn("s1", "slow", { ms: 60, steps: 3 }), textTurn("ok")] });
    const { from } = await promptAndSettle(client, "go");
    const records = client.records.slice(from);
    const updates = records.filter(isType("tool_execution_update")) as unknown as { toolCallId: string; args: unknown; partialResult: { content: { text: string }[] } }[];
    expect(updates.map((u) => u.partialResult.content[0]!.text)).toEqual(["step 1\n", "step 1\nstep 2\n", "step 1\nstep 2\nstep 3\n"]);
    expect(updates[0]).toMatchObject({ toolCallId: "s1", toolName: "slow", args: { ms: 60, steps: 3 } });
    expect(indexOf(records, isType("tool_execution_start"))).toBeLessThan(indexOf(records, isType("tool_execution_update")));
    expect(records.findLastIndex(isType("tool_execution_update"))).toBeLessThan(indexOf(records, isType("tool_execution_end")));
  });
});

describe("prompting", () => {
  it("puts images into the user message and the LLM context", async () => {
    client = startAgent({ turns: [textTurn("I see it.")] });
    const image = { type: "image", data: "aGVsbG8=", mimeType: "image/png" };
    const { from } = await promptAndSettle(client, "look", { images: [image] });
    const userStart = client.records.slice(from).find((r) => r.type === "message_start") as unknown as { message: { role: string; content: unknown } };
    expect(userStart.message.role).toBe("user");
    expect(userStart.message.content).toEqual([{ type: "text", text: "look" }, image]);
    expect((await probeLog(client)).contexts[0]).toEqual(["user: look [image image/png]"]);
  });

  it("rejects a prompt while streaming without streamingBehavior and leaves the stream alone", async () => {
    client = startAgent({ turns: [textTurn("one two three four five six", 6)], eventDelayMs: 40 });
    const from = client.records.length;
    await client.request({ type: "prompt", message: "first" });
    await client.waitForEvent("message_update", 5000, from);
    const rejected = await client.request({ type: "prompt", message: "second" });
    expect(rejected).toMatchObject({ command: "prompt", success: false, error: STREAMING_ERROR });
    const state = await client.request({ type: "get_state" });
    expect(state.data).toMatchObject({ isStreaming: true, pendingMessageCount: 0 });
    await client.waitForEvent("agent_end", 5000, from);
    const records = client.records.slice(from);
    const userTexts = records.filter((r) => r.type === "message_start" && (r.message as { role: string }).role === "user").map((r) => textOf(r.message));
    expect(userTexts).toEqual(["first"]);
    expect(records.filter(isType("agent_start"))).toHaveLength(1);
    expect(records.filter(isType("queue_update"))).toHaveLength(0);
    expect(textOf((records.find(isType("agent_end")) as unknown as { messages: unknown[] }).messages[1])).toBe("one two three four five six");
  });

  it("ignores streamingBehavior on an idle prompt and reports the state", async () => {
    client = startAgent({ turns: [textTurn("hello")] });
    const before = await client.request({ type: "get_state" });
    expect(before.data).toMatchObject({
      model: { provider: "replay", id: "script" },
      thinkingLevel: "off", // the replay model has no reasoning: medium clamps to off
      isStreaming: false,
      isCompacting: false,
      steeringMode: "one-at-a-time",
      followUpMode: "one-at-a-time",
      autoCompactionEnabled: true,
      messageCount: 0,
      pendingMessageCount: 0,
    });
    const data = before.data as Record<string, unknown>;
    expect(typeof data.sessionId).toBe("string");
    expect("sessionFile" in data).toBe(false); // --no-session
    const { from } = await promptAndSettle(client, "hi", { streamingBehavior: "followUp" });
    expect(client.records[from]).toMatchObject({ type: "response", command: "prompt", success: true });
    expect(eventTypes(client.records, from)[0]).toBe("agent_start");
    const after = await client.request({ type: "get_state" });
    expect(after.data).toMatchObject({ isStreaming: false, messageCount: 2 });
  });
});
