/**
 * Which failures a typed call retries (pi 1.6's rule, after the OpenAI and Anthropic SDKs): the
 * statuses, the server's `x-should-retry` over them, and the wire's own exceptions over both.
 */
import { describe, expect, it } from "vitest";
import { retryable, withRetries } from "./retries.js";

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
});
