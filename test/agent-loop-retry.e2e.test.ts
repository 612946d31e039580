/**
 * Automatic retry over the built CLI: a transient failure followed by success, exhaustion,
 * disabled retry, non-retryable errors, and cancelling the backoff with abort_retry or abort.
 */
import { afterEach, describe, expect, it } from "vitest";
import { errorTurn, eventTypes, indexOf, isType, probeLog, startAgent, waitIdle } from "./helpers/agent-harness.js";
import { textTurn, type Record_, type RpcClient } from "./helpers/rpc-client.js";

const OVERLOADED = '529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}';

let client: RpcClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

const retryEvents = (records: Record_[]) => records.filter((r) => r.type === "auto_retry_start" || r.type === "auto_retry_end");

async function prompt(c: RpcClient): Promise<number> {
  const from = c.records.length;
  const response = await c.request({ type: "prompt", message: "go" });
  expect(response.success).toBe(true);
  return from;
}

describe("auto retry", () => {
  it("retries a transient error in a new run and reports success at the good answer", async () => {
    client = startAgent({ turns: [errorTurn(OVERLOADED), textTurn("Recovered answer")], settings: { retry: { baseDelayMs: 30 } } });
    const from = await prompt(client);
    await client.waitForEvent("auto_retry_end", 5000, from);
    await client.waitForEvent("agent_settled", 5000, from);
    const records = client.records.slice(from);

    expect(eventTypes(records).filter((t) => t !== "message_update" && t !== "response")).toEqual([
      "agent_start",
      "turn_start",
      "message_start",
      "message_end", // user
      "message_start",
      "message_end",
      "turn_end",
      "agent_end", // failed assistant
      "auto_retry_start",
      "agent_start",
      "turn_start",
      "message_start",
      "message_end", // good assistant
      "auto_retry_end",
      "turn_end",
      "agent_end",
      "agent_settled", // once, after the retry's run
    ]);
    expect(retryEvents(records)).toEqual([
      { type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 30, errorMessage: OVERLOADED },
      { type: "auto_retry_end", success: true, attempt: 1 },
    ]);
    const failed = records.filter(isType("message_end"))[1]!.message as { stopReason: string; errorMessage: string };
    expect(failed).toMatchObject({ stopReason: "error", errorMessage: OVERLOADED });

    // The failed turn left the live context: neither the retried call nor get_messages sees it.
    expect((await probeLog(client)).contexts).toEqual([["user: go"], ["user: go"]]);
    const messages = (await client.request({ type: "get_messages" })).data as { messages: { role: string; stopReason?: string }[] };
    expect(messages.messages.map((m) => [m.role, m.stopReason])).toEqual([
      ["user", undefined],
      ["assistant", "stop"],
    ]);
  });

  it("gives up after maxRetries with the last error, backing off exponentially", async () => {
    const turns = [errorTurn("503 Service Unavailable"), errorTurn("503 Service Unavailable"), errorTurn("502 Bad Gateway")];
    client = startAgent({ turns, settings: { retry: { maxRetries: 2, baseDelayMs: 10 } } });
    const from = await prompt(client);
    await client.waitForEvent("auto_retry_end", 5000, from);
    await waitIdle(client);
    const records = client.records.slice(from);
    expect(retryEvents(records)).toEqual([
      { type: "auto_retry_start", attempt: 1, maxAttempts: 2, delayMs: 10, errorMessage: "503 Service Unavailable" },
      { type: "auto_retry_start", attempt: 2, maxAttempts: 2, delayMs: 20, errorMessage: "503 Service Unavailable" },
      { type: "auto_retry_end", success: false, attempt: 2, finalError: "502 Bad Gateway" },
    ]);
    expect(records.filter(isType("agent_start"))).toHaveLength(3);
    // The end comes after the last run's agent_end.
    expect(indexOf(records, isType("auto_retry_end"))).toBeGreaterThan(records.findLastIndex(isType("agent_end")));
    const messages = (await client.request({ type: "get_messages" })).data as { messages: { role: string; errorMessage?: string }[] };
    expect(messages.messages.map((m) => m.errorMessage)).toEqual([undefined, "502 Bad Gateway"]);
  });

  it("set_auto_retry false: no retry events, the error ends the prompt", async () => {
    client = startAgent({ turns: [errorTurn(OVERLOADED), textTurn("never")], settings: { retry: { baseDelayMs: 10 } } });
    expect((await client.request({ type: "set_auto_retry", enabled: false })).success).toBe(true);
    const from = await prompt(client);
    await client.waitForEvent("agent_end", 5000, from);
    await waitIdle(client);
    await new Promise((r) => setTimeout(r, 60)); // longer than a retry delay would be
    expect(retryEvents(client.records.slice(from))).toEqual([]);
    expect(client.records.slice(from).filter(isType("agent_start"))).toHaveLength(1);
  });

  it.each([["400 Bad Request: prompt is too long: 250000 tokens > 200000 maximum"], ["401 invalid x-api-key"]])("does not retry %s", async (message) => {
    client = startAgent({ turns: [errorTurn(message), textTurn("never")], settings: { retry: { baseDelayMs: 10 } } });
    const from = await prompt(client);
    await client.waitForEvent("agent_end", 5000, from);
    await waitIdle(client);
    expect(retryEvents(client.records.slice(from))).toEqual([]);
  });

  it("abort_retry during the delay: Retry cancelled before its response, and the prompt ends", async () => {
    client = startAgent({ turns: [errorTurn("429 Too Many Requests"), textTurn("never")], settings: { retry: { baseDelayMs: 5000 } } });
    const from = await prompt(client);
    await client.waitForEvent("auto_retry_start", 5000, from);
    expect((await client.request({ type: "get_state" })).data).toMatchObject({ isStreaming: true });
    const response = await client.request({ type: "abort_retry" }, 2000);
    expect(response).toMatchObject({ command: "abort_retry", success: true });
    const endAt = indexOf(client.records, isType("auto_retry_end"), from);
    expect(client.records[endAt]).toEqual({ type: "auto_retry_end", success: false, attempt: 1, finalError: "Retry cancelled" });
    expect(endAt).toBeLessThan(client.records.indexOf(response));
    expect((await client.request({ type: "get_state" })).data).toMatchObject({ isStreaming: false });
    expect(client.records.slice(from).filter(isType("agent_start"))).toHaveLength(1);
  });

  it("abort during the delay: Retry cancelled, then the abort response", async () => {
    client = startAgent({ turns: [errorTurn("fetch failed"), textTurn("never")], settings: { retry: { baseDelayMs: 5000 } } });
    const from = await prompt(client);
    await client.waitForEvent("auto_retry_start", 5000, from);
    const response = await client.request({ type: "abort" }, 2000);
    expect(response).toMatchObject({ command: "abort", success: true });
    const records = client.records.slice(from);
    expect(
      eventTypes(records)
        .filter((t) => t !== "response")
        .slice(-3),
    ).toEqual(["auto_retry_start", "auto_retry_end", "agent_settled"]);
    expect(records.find(isType("agent_settled"))).toEqual({ type: "agent_settled", aborted: true });
    expect(records.find(isType("auto_retry_end"))).toMatchObject({ success: false, attempt: 1, finalError: "Retry cancelled" });
    expect(indexOf(records, isType("auto_retry_end"))).toBeLessThan(records.indexOf(response));
    expect((await client.request({ type: "get_state" })).data).toMatchObject({ isStreaming: false });
  });

  it("delivers a steer sent during the failed call before the retried call", async () => {
    const failing = [
      { type: "text_start", contentIndex: 0 },
      { type: "text_delta", contentIndex: 0, delta: "par" },
      { type: "text_delta", contentIndex: 0, delta: "tial" },
      { type: "error", errorMessage: "terminated" },
    ];
    client = startAgent({ turns: [failing, textTurn("after steer")], eventDelayMs: 30, settings: { retry: { baseDelayMs: 10 } } });
    const from = await prompt(client);
    await client.waitForEvent("message_update", 5000, from);
    expect((await client.request({ type: "steer", message: "use plan B" })).success).toBe(true);
    await client.waitForEvent("auto_retry_end", 5000, from);
    await waitIdle(client);
    expect((await probeLog(client)).contexts).toEqual([["user: go"], ["user: go", "user: use plan B"]]);
    expect(retryEvents(client.records.slice(from)).at(-1)).toEqual({ type: "auto_retry_end", success: true, attempt: 1 });
  });

  it("abort_retry with nothing retrying succeeds without events", async () => {
    client = startAgent({ turns: [textTurn("unused")] });
    const from = client.records.length;
    const response = await client.request({ type: "abort_retry" });
    expect(response).toMatchObject({ command: "abort_retry", success: true });
    expect(client.records.slice(from)).toEqual([response]);
  });
});
