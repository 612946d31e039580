/**
 * Abort over the built CLI, at each phase: while text streams, while a slow tool runs, while
 * idle, with messages queued, and at stdin EOF. The aborted run always closes with an
 * assistant `stopReason:"aborted"`, turn_end and agent_end before the abort response.
 */
import { afterEach, describe, expect, it } from "vitest";
import { eventTypes, isType, probeLog, startAgent, textOf } from "./helpers/agent-harness.js";
import { textTurn, toolTurn, type Record_, type RpcClient } from "./helpers/rpc-client.js";

let client: RpcClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

const stopReasonOf = (record: Record_ | undefined) => (record?.message as { stopReason?: string } | undefined)?.stopReason;

/** Sends abort; returns the records from the abort's send up to and including its response. */
async function abortNow(c: RpcClient): Promise<{ records: Record_[]; responseAt: number }> {
  const from = c.records.length;
  const response = await c.request({ type: "abort" }, 5000);
  expect(response).toMatchObject({ command: "abort", success: true });
  const responseAt = c.records.indexOf(response) - from;
  return { records: c.records.slice(from), responseAt };
}

describe("abort", () => {
  it("mid-stream: the assistant ends aborted with its partial text, then turn_end, agent_end, then the response", async () => {
    client = startAgent({ turns: [textTurn("alpha beta gamma delta epsilon zeta eta theta", 8)], eventDelayMs: 40 });
    const from = client.records.length;
    await client.request({ type: "prompt", message: "go" });
    await client.waitFor((r) => r.type === "message_update" && (r.assistantMessageEvent as { type: string }).type === "text_delta", 5000, from);
    const { records, responseAt } = await abortNow(client);

    const tail = eventTypes(records.slice(0, responseAt)).filter((t) => t !== "message_update");
    expect(tail).toEqual(["message_end", "turn_end", "agent_end", "agent_settled"]);
    expect(records.find(isType("agent_settled"))).toEqual({ type: "agent_settled", aborted: true });
    expect(records[responseAt + 1]).toBeUndefined(); // nothing after the response
    const end = records.find(isType("message_end"));
    expect(stopReasonOf(end)).toBe("aborted");
    const partialText = textOf(end!.message);
    expect(partialText.length).toBeGreaterThan(0);
    expect("alpha beta gamma delta epsilon zeta eta theta".startsWith(partialText)).toBe(true);
    expect(partialText).not.toBe("alpha beta gamma delta epsilon zeta eta theta");
    expect(stopReasonOf(records.find(isType("turn_end")))).toBe("aborted");
    expect((records.find(isType("turn_end")) as unknown as { toolResults: unknown[] }).toolResults).toEqual([]);
    expect((await client.request({ type: "get_state" })).data).toMatchObject({ isStreaming: false, messageCount: 2 });
  });

  it("during a slow tool: the tool sees the signal, the run closes with an aborted turn without calling the model", async () => {
    // The tool would outlive the test's timeout: only the abort ends it.
    client = startAgent({ turns: [toolTurn("s1", "slow", { ms: 600_000, steps: 1 }), textTurn("never")] });
    const from = client.records.length;
    await client.request({ type: "prompt", message: "go" });
    await client.waitForEvent("tool_execution_start", 20_000, from);
    const { records, responseAt } = await abortNow(client);

    expect(eventTypes(records.slice(0, responseAt))).toEqual([
      "tool_execution_end",
      "message_start",
      "message_end", // the tool's error result
      "turn_end",
      "turn_start",
      "message_start",
      "message_end", // the closing aborted assistant turn
      "turn_end",
      "agent_end",
      "agent_settled",
    ]);
    const toolEnd = records.find(isType("tool_execution_end")) as unknown as { isError: boolean; result: { content: { text: string }[] } };
    expect(toolEnd.isError).toBe(true);
    expect(toolEnd.result.content[0]!.text).toBe("Operation aborted");
    const closing = records.filter(isType("message_end")).at(-1);
    expect(stopReasonOf(closing)).toBe("aborted");
    expect((closing!.message as { content: unknown[] }).content).toEqual([]);
    const log = await probeLog(client);
    expect(log.abortedTools).toEqual(["slow"]);
    expect(log.contexts).toHaveLength(1); // no LLM call after the abort
  });

  it("when idle: success and no events", async () => {
    client = startAgent({ turns: [textTurn("unused")] });
    const { records, responseAt } = await abortNow(client);
    expect(responseAt).toBe(0);
    expect(records).toHaveLength(1);
    expect((await client.request({ type: "get_state" })).data).toMatchObject({ isStreaming: false });
  });

  it("keeps queued messages; they wait for the next prompt", async () => {
    client = startAgent({ turns: [textTurn("slow answer here", 6), textTurn("next")], eventDelayMs: 40 });
    const from = client.records.length;
    await client.request({ type: "prompt", message: "go" });
    await client.waitForEvent("message_update", 5000, from);
    await client.request({ type: "steer", message: "kept" });
    await abortNow(client);
    expect((await client.request({ type: "get_state" })).data).toMatchObject({ isStreaming: false, pendingMessageCount: 1 });
    await new Promise((r) => setTimeout(r, 150));
    expect(client.records.slice(from).filter(isType("agent_start"))).toHaveLength(1);

    const next = client.records.length;
    await client.request({ type: "prompt", message: "again" });
    await client.waitForEvent("agent_end", 5000, next);
    const users = client.records
      .slice(next)
      .filter((r) => r.type === "message_start" && (r.message as { role: string }).role === "user")
      .map((r) => textOf(r.message));
    expect(users).toEqual(["kept", "again"]);
    // The aborted turn stays in the conversation (convert.ts leaves it out of the provider request).
    // How much of the answer streamed before the abort landed depends on the machine's load.
    const [go, aborted, kept, again] = (await probeLog(client)).contexts[1]!;
    expect([go, kept, again]).toEqual(["user: go", "user: kept", "user: again"]);
    expect("slow answer here".startsWith(aborted!.replace(/^assistant\(aborted\): /, ""))).toBe(true);
    expect(aborted).toMatch(/^assistant\(aborted\): /);
  });

  it("at stdin EOF: the running run's closing events are written, then exit 0", async () => {
    client = startAgent({ turns: [textTurn("long long long long answer", 8)], eventDelayMs: 40 });
    const from = client.records.length;
    await client.request({ type: "prompt", message: "go" });
    await client.waitForEvent("message_update", 5000, from);
    const exit = await client.close();
    expect(exit.code).toBe(0);
    const records = client.records.slice(from);
    expect(eventTypes(records).slice(-4)).toEqual(["message_end", "turn_end", "agent_end", "agent_settled"]);
    expect(stopReasonOf(records.filter(isType("message_end")).at(-1))).toBe("aborted");
    expect(records.at(-1)).toEqual({ type: "agent_settled", aborted: true });
    client = undefined;
  });
});
