import { describe, expect, it } from "vitest";
import { emptyUsage, type AgentMessage, type AssistantMessage } from "../../lib/llm/index.js";
import { RETRY_CANCELLED, RetryChain, retryDelayMs, type RetrySettings } from "./retry-chain.js";

function reply(stopReason: AssistantMessage["stopReason"], errorMessage?: string): AssistantMessage {
  return { role: "assistant", content: [], api: "a", provider: "p", model: "m", usage: emptyUsage(), stopReason, timestamp: 1, ...(errorMessage ? { errorMessage } : {}) };
}

function setup(settings: Partial<RetrySettings> = {}) {
  const events: Record<string, unknown>[] = [];
  const removed: AgentMessage[] = [];
  const chain = new RetryChain(
    { enabled: true, maxRetries: 3, baseDelayMs: 1, maxRetryDelayMs: 60_000, ...settings },
    { emit: (type, payload) => events.push({ type, ...payload }), removeMessage: (m) => removed.push(m) },
  );
  return { chain, events, removed, signal: new AbortController().signal };
}

describe("retryDelayMs", () => {
  it("doubles per attempt", () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(2000, attempt))).toEqual([2000, 4000, 8000, 16000]);
  });
});

describe("RetryChain", () => {
  it("retries a transient error, drops the failed turn, and ends with success at the next good answer", async () => {
    const { chain, events, removed, signal } = setup();
    const failed = reply("error", "503 Service Unavailable");
    chain.onAssistantEnd(failed); // errors are decided at run end: no event yet
    expect(await chain.onRunEnd(failed, signal)).toBe(true);
    expect(removed).toEqual([failed]);
    chain.onAssistantEnd(reply("stop"));
    expect(events).toEqual([
      { type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 1, errorMessage: "503 Service Unavailable" },
      { type: "auto_retry_end", success: true, attempt: 1 },
    ]);
    expect(chain.attempt).toBe(0);
  });

  it("gives up after maxRetries with the last error, keeping that failed turn", async () => {
    const { chain, events, removed, signal } = setup({ maxRetries: 2 });
    expect(await chain.onRunEnd(reply("error", "overloaded"), signal)).toBe(true);
    expect(await chain.onRunEnd(reply("error", "overloaded"), signal)).toBe(true);
    const last = reply("error", "rate limit exceeded");
    expect(await chain.onRunEnd(last, signal)).toBe(false);
    expect(events.map((e) => [e.type, e.attempt, e.delayMs ?? e.finalError])).toEqual([
      ["auto_retry_start", 1, 1],
      ["auto_retry_start", 2, 2],
      ["auto_retry_end", 2, "rate limit exceeded"],
    ]);
    expect(removed).toHaveLength(2);
    expect(removed).not.toContain(last);
  });

  it("waits at least the delay the server asked for, and gives up at once on one above the cap", async () => {
    const { chain, events, signal } = setup({ baseDelayMs: 1, maxRetryDelayMs: 1000 });
    expect(await chain.onRunEnd(reply("error", "429 Too Many Requests (retry after 30 ms)"), signal)).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: "auto_retry_start", delayMs: 30 });
    const refused = reply("error", '429 {"error":{"details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"3600s"}]}}');
    expect(await chain.onRunEnd(refused, signal)).toBe(false);
    expect(events.at(-1)).toEqual({ type: "auto_retry_end", success: false, attempt: 1, finalError: refused.errorMessage });
  });

  it("leaves alone successes, overflows, fatal errors, disabled retry and maxRetries 0", async () => {
    for (const [settings, message] of [
      [{}, reply("stop")],
      [{}, reply("error", "prompt is too long: 300000 tokens > 200000 maximum")],
      [{}, reply("error", "401 invalid api key")],
      [{ enabled: false }, reply("error", "529 overloaded")],
      [{ maxRetries: 0 }, reply("error", "529 overloaded")],
    ] as const) {
      const { chain, events, removed, signal } = setup(settings);
      expect(await chain.onRunEnd(message, signal)).toBe(false);
      expect(events).toEqual([]);
      expect(removed).toEqual([]);
    }
  });

  it("a fatal error after a retry ends the chain with that error", async () => {
    const { chain, events, signal } = setup();
    await chain.onRunEnd(reply("error", "fetch failed"), signal);
    expect(await chain.onRunEnd(reply("error", "400 bad request"), signal)).toBe(false);
    expect(events.at(-1)).toEqual({ type: "auto_retry_end", success: false, attempt: 1, finalError: "400 bad request" });
  });

  it("cancel() during the delay ends the chain as cancelled before it resolves", async () => {
    const { chain, events, signal } = setup({ baseDelayMs: 10_000 });
    const decision = chain.onRunEnd(reply("error", "429 Too Many Requests"), signal);
    await new Promise((r) => setTimeout(r, 5));
    expect(chain.isWaiting).toBe(true);
    await chain.cancel();
    expect(events.at(-1)).toEqual({ type: "auto_retry_end", success: false, attempt: 1, finalError: RETRY_CANCELLED });
    expect(await decision).toBe(false);
    expect(chain.isWaiting).toBe(false);
  });

  it("the run's abort signal during the delay cancels it too", async () => {
    const { chain, events } = setup({ baseDelayMs: 10_000 });
    const controller = new AbortController();
    const decision = chain.onRunEnd(reply("error", "ECONNRESET"), controller.signal);
    controller.abort();
    expect(await decision).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: "auto_retry_end", success: false, finalError: RETRY_CANCELLED });
  });

  it("cancel() while a retried call runs stops at its failure; an aborted retried call ends as cancelled", async () => {
    const first = setup();
    await first.chain.onRunEnd(reply("error", "503"), first.signal);
    await first.chain.cancel();
    expect(await first.chain.onRunEnd(reply("error", "503"), first.signal)).toBe(false);
    expect(first.events.at(-1)).toEqual({ type: "auto_retry_end", success: false, attempt: 1, finalError: RETRY_CANCELLED });

    const second = setup();
    await second.chain.onRunEnd(reply("error", "503"), second.signal);
    second.chain.onAssistantEnd(reply("aborted"));
    expect(second.events.at(-1)).toEqual({ type: "auto_retry_end", success: false, attempt: 1, finalError: RETRY_CANCELLED });
  });

  it("cancel() with nothing retrying does nothing; reset() forgets a stale chain", async () => {
    const { chain, events, signal } = setup();
    await chain.cancel();
    expect(events).toEqual([]);
    await chain.onRunEnd(reply("error", "503"), signal);
    chain.reset();
    chain.onAssistantEnd(reply("stop"));
    expect(events.map((e) => e.type)).toEqual(["auto_retry_start"]);
  });
});
