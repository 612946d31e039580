/**
 * Which failures a typed call retries (pi 1.6's rule, after the OpenAI and Anthropic SDKs): the
 * statuses, the server's `x-should-retry` over them, and the wire's own exceptions over both;
 * and how long it waits between attempts (pi's backoff, or the server's `retry-after`).
 */
import { describe, expect, it } from "vitest";
import { backoffDelayMs, retryable, retryDelayMs, withRetries } from "./retries.js";

const failure = (status?: number, headers: Record<string, string> = {}) => Object.assign(new Error(`HTTP ${status}`), { status, headers: new Headers(headers) });

describe("typed-call retries", () => {
  it("retries a lost connection, 408, 409, 429 and 5xx; not other statuses nor an abort", () => {
    expect([408, 409, 429, 500, 503].map((status) => retryable(failure(status), []))).toEqual([true, true, true, true, true]);
    expect([400, 401, 403, 404, 422].map((status) => retryable(failure(status), []))).toEqual([false, false, false, false, false]);
    expect(retryable(new Error("socket hang up"), [])).toBe(true);
    expect(retryable(Object.assign(new Error("aborted"), { name: "AbortError" }), [])).toBe(false);
  });

  it("lets the server's x-should-retry decide over the status", () => {
    expect(retryable(failure(400, { "x-should-retry": "true" }), [])).toBe(true);
    expect(retryable(failure(503, { "x-should-retry": "false" }), [])).toBe(false);
    expect(retryable(failure(429, { "x-should-retry": "maybe" }), [])).toBe(true);
  });

  it("never retries a status the wire names, whatever the server says", () => {
    expect(retryable(failure(504, { "x-should-retry": "true" }), [504])).toBe(false);
  });

  it("a 409 is attempted again, then its answer returned", async () => {
    let attempts = 0;
    const result = await withRetries(
      async () => {
        if (++attempts === 1) throw failure(409, { "retry-after-ms": "1" });
        return "second";
      },
      { maxRetries: 2, signal: new AbortController().signal },
    );
    expect([result, attempts]).toEqual(["second", 2]);
  });

  it("backs off as pi: 0.5 s doubling to at most 8 s, less up to a quarter at random", () => {
    const schedule = (random: number) => [0, 1, 2, 3, 4, 5, 9].map((index) => backoffDelayMs(index, () => random));
    expect(schedule(0)).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
    expect(schedule(0.5)).toEqual([437.5, 875, 1750, 3500, 7000, 7000, 7000]);
    // Math.random stays below 1, so a step never shrinks to three quarters or less.
    expect(schedule(0.999999).every((ms, index) => ms > 0.75 * [500, 1000, 2000, 4000, 8000, 8000, 8000][index]!)).toBe(true);
  });

  it("waits the server's retry-after-ms or retry-after instead, and never caps the backoff by maxRetryDelayMs", () => {
    const fixed = { random: () => 0 };
    expect(retryDelayMs(failure(429, { "retry-after-ms": "1500", "retry-after": "9" }), 0, fixed)).toBe(1500);
    expect(retryDelayMs(failure(429, { "retry-after": "2.5" }), 3, fixed)).toBe(2500);
    expect(retryDelayMs(failure(503), 4, { ...fixed, maxRetryDelayMs: 1000 })).toBe(8000);
    expect(retryDelayMs(new Error("socket hang up"), 1, fixed)).toBe(1000);
  });

  it("refuses a server wait past maxRetryDelayMs (60 s unless set, 0: no limit)", () => {
    const asks = (seconds: number) => failure(429, { "retry-after": String(seconds) });
    expect(() => retryDelayMs(asks(61), 0, { label: "Decisions" })).toThrow(/^Server requested 61s retry delay \(max: 60s\)\. /);
    expect(retryDelayMs(asks(60), 0, {})).toBe(60_000);
    expect(() => retryDelayMs(asks(3), 0, { maxRetryDelayMs: 2000 })).toThrow("Server requested 3s retry delay (max: 2s).");
    expect(retryDelayMs(asks(3600), 0, { maxRetryDelayMs: 0 })).toBe(3_600_000);
  });

  it("sleeps the schedule between attempts, then gives up after maxRetries", async () => {
    const waits: number[] = [];
    let attempts = 0;
    const run = withRetries(
      async () => {
        attempts++;
        throw failure(attempts === 2 ? 429 : 503, attempts === 2 ? { "retry-after-ms": "20" } : {});
      },
      { maxRetries: 4, signal: new AbortController().signal, random: () => 0.5, sleep: async (ms) => void waits.push(ms) },
    );
    await expect(run).rejects.toMatchObject({ status: 503 });
    expect([attempts, waits]).toEqual([5, [437.5, 20, 1750, 3500]]);
  });
});
