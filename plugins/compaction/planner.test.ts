import { describe, expect, it } from "vitest";
import { emptyUsage, type AssistantMessage, type AssistantMessageEvent, type AssistantStream, type Model } from "../../lib/llm/index.js";
import type { CompletionRequest } from "../agent/api.js";
import { planDeletions, type PlannerDeps } from "./planner.js";

const MODEL: Model = {
  id: "m",
  name: "M",
  api: "test",
  provider: "p",
  baseUrl: "",
  reasoning: true,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 1000,
  maxTokens: 100,
};

type Reply = { text: string; stop?: "stop" | "length" } | { error: string } | ((request: CompletionRequest) => Promise<Reply>);

function message(reply: { text: string; stop?: "stop" | "length" } | { error: string }): AssistantMessage {
  const base = { role: "assistant" as const, api: "test", provider: "p", model: "m", usage: emptyUsage(), timestamp: 0 };
  if ("error" in reply) return { ...base, content: [], stopReason: "error", errorMessage: reply.error };
  return { ...base, content: [{ type: "text", text: reply.text }], stopReason: reply.stop ?? "stop" };
}

/** A planner host answering from `replies` in order; records requests and events. */
function host(replies: Reply[], retry = { enabled: true, maxRetries: 3, baseDelayMs: 1 }) {
  const requests: CompletionRequest[] = [];
  const events: { type: string; payload: unknown }[] = [];
  const plannerHost: PlannerDeps = {
    model: MODEL,
    thinkingLevel: "high",
    retry,
    reason: "manual",
    emit: (type, payload) => void events.push({ type, payload }),
    complete(request) {
      requests.push(request);
      const next = replies.shift() ?? { text: "" };
      return (async function* (): AssistantStream {
        const reply = typeof next === "function" ? await next(request) : next;
        const final = message(reply as Exclude<Reply, Function>);
        const event: AssistantMessageEvent =
          final.stopReason === "error"
            ? { type: "error", reason: "error", error: final, partial: final }
            : { type: "done", reason: final.stopReason as "stop", message: final, partial: final };
        yield event;
      })() as unknown as AssistantStream;
    },
  };
  return { plannerHost, requests, events };
}

const lines = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`);
const request = (signal = new AbortController().signal) => ({ lines, compressionRatio: 0.5, query: "q", signal });
const userText = (r: CompletionRequest) => r.messages[0]!.content as string;

describe("planDeletions", () => {
  it("should ask once, without maxTokens, at the session's thinking level, and normalise the plan", async () => {
    const { plannerHost, requests, events } = host([{ text: "9,7\n2,5\n6,6\n" }]);
    expect(await planDeletions(plannerHost, request())).toEqual({ ok: true, ranges: [{ start: 2, end: 9 }] });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ thinkingLevel: "high" });
    expect(requests[0]!.maxTokens).toBeUndefined();
    expect(userText(requests[0]!)).toContain("Total physical lines: 40");
    expect(events).toEqual([]);
  });

  it("should report an invalid plan and a provider error", async () => {
    expect(await planDeletions(host([{ text: "2,5\nok" }]).plannerHost, request())).toEqual({
      ok: false,
      error: 'invalid plan (line 2 is not a "start,end" record: "ok")',
      invalidPlan: true,
    });
    expect(await planDeletions(host([{ error: "401 invalid x-api-key" }]).plannerHost, request())).toEqual({ ok: false, error: "401 invalid x-api-key", invalidPlan: false });
  });

  it("should retry transient errors with the retry settings and say so", async () => {
    const { plannerHost, requests, events } = host([{ error: "503 Service Unavailable" }, { error: "terminated" }, { text: "1,3" }]);
    expect(await planDeletions(plannerHost, request())).toEqual({ ok: true, ranges: [{ start: 1, end: 3 }] });
    expect(requests).toHaveLength(3);
    expect(events).toEqual([
      { type: "summarization_retry_scheduled", payload: { attempt: 1, maxAttempts: 3, delayMs: 1, errorMessage: "503 Service Unavailable" } },
      { type: "summarization_retry_attempt_start", payload: { source: "compaction", reason: "manual" } },
      { type: "summarization_retry_scheduled", payload: { attempt: 2, maxAttempts: 3, delayMs: 2, errorMessage: "terminated" } },
      { type: "summarization_retry_attempt_start", payload: { source: "compaction", reason: "manual" } },
      { type: "summarization_retry_finished", payload: {} },
    ]);
  });

  it("should give up after maxRetries, and not retry when retry is disabled", async () => {
    const exhausted = host([{ error: "429 Too Many Requests" }, { error: "429 Too Many Requests" }], { enabled: true, maxRetries: 1, baseDelayMs: 1 });
    expect(await planDeletions(exhausted.plannerHost, request())).toMatchObject({ ok: false, error: "429 Too Many Requests" });
    expect(exhausted.events.map((e) => e.type)).toEqual(["summarization_retry_scheduled", "summarization_retry_attempt_start", "summarization_retry_finished"]);
    const disabled = host([{ error: "429 Too Many Requests" }], { enabled: false, maxRetries: 3, baseDelayMs: 1 });
    expect(await planDeletions(disabled.plannerHost, request())).toMatchObject({ ok: false });
    expect(disabled.events).toEqual([]);
  });

  it("should withhold the oldest lines when the request overflows, deleting them", async () => {
    const overflow = { error: "400 This model's maximum context length is 1000 tokens. However, your messages resulted in 1500 tokens." };
    const { plannerHost, requests } = host([overflow, { text: "1,2\n10,12" }]);
    // 40 lines: the second view starts at line 21 (20 withheld) and is renumbered from 1.
    expect(await planDeletions(plannerHost, request())).toEqual({
      ok: true,
      ranges: [
        { start: 1, end: 22 },
        { start: 30, end: 32 },
      ],
    });
    expect(userText(requests[1]!)).toContain("1\u2192line 21\n");
    expect(userText(requests[1]!)).toContain("Total physical lines: 20\nTarget lines to keep: 10");
  });

  it("should fail when even the newest line does not fit", async () => {
    const overflow = { error: "prompt is too long: 5000 tokens > 1000 maximum" };
    const { plannerHost, requests } = host(Array.from({ length: 10 }, () => overflow));
    const outcome = await planDeletions(plannerHost, request());
    expect(outcome).toMatchObject({ ok: false, invalidPlan: false });
    // 40 -> 20 -> 10 -> 5 -> 3 -> 2 -> 1 lines left: seven requests.
    expect(requests).toHaveLength(7);
  });

  it("should stop with Compaction cancelled when aborted, during a request or a retry delay", async () => {
    const controller = new AbortController();
    const slow = host([async () => (controller.abort(), { text: "1,2" })]);
    await expect(planDeletions(slow.plannerHost, request(controller.signal))).rejects.toThrow("Compaction cancelled");

    const waiting = new AbortController();
    const retrying = host([{ error: "503 Service Unavailable" }], { enabled: true, maxRetries: 3, baseDelayMs: 60_000 });
    const pending = planDeletions(retrying.plannerHost, request(waiting.signal));
    await new Promise((resolve) => setImmediate(resolve));
    waiting.abort();
    await expect(pending).rejects.toThrow("Compaction cancelled");
    expect(retrying.events.map((e) => e.type)).toEqual(["summarization_retry_scheduled", "summarization_retry_finished"]);
  });

  it("should treat a cut-off answer's complete records as the plan", async () => {
    const { plannerHost } = host([{ text: "1,5\n30,3", stop: "length" }]);
    expect(await planDeletions(plannerHost, request())).toEqual({ ok: true, ranges: [{ start: 1, end: 5 }] });
  });
});
