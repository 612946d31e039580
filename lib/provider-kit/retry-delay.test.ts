/** Reading the retry delay a server asked for, from headers and from stored error text. */
import { describe, expect, it } from "vitest";
import { requestedRetryDelayMs, retryAfterFromHeaders, retryAfterNote } from "./retry-delay.js";

describe("requestedRetryDelayMs", () => {
  it.each([
    [`429 {"type":"error"} ${retryAfterNote(20_000)}`, 20_000],
    ['429 {"error":{"details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"34s"}]}}', 34_000],
    ["Quota exceeded. Please retry in 34.074824224s.", 34_075],
    ["Rate limit reached for gpt-5.4. Please try again in 1m30s.", 90_000],
    ["Rate limit reached. Please try again in 250ms.", 250],
    ["Rate limit reached. Please try again in 2h.", 7_200_000],
  ])("reads %s", (message, ms) => {
    expect(requestedRetryDelayMs(message)).toBe(ms);
  });

  it("is undefined when no delay is named", () => {
    expect(requestedRetryDelayMs("503 Service Unavailable")).toBeUndefined();
    expect(requestedRetryDelayMs("Please retry in a moment")).toBeUndefined();
    expect(requestedRetryDelayMs(undefined)).toBeUndefined();
  });
});

describe("retryAfterFromHeaders", () => {
  const headers = (entries: Record<string, string>) => new Headers(entries);
  it("prefers retry-after-ms, then seconds or an HTTP date", () => {
    expect(retryAfterFromHeaders(headers({ "retry-after-ms": "1500", "retry-after": "9" }))).toBe(1500);
    expect(retryAfterFromHeaders(headers({ "retry-after": "9" }))).toBe(9000);
    expect(retryAfterFromHeaders(headers({ "retry-after": new Date(61_000).toUTCString() }), 1_000)).toBe(60_000);
    expect(retryAfterFromHeaders(headers({ "retry-after": "soon" }))).toBeUndefined();
    expect(retryAfterFromHeaders(headers({}))).toBeUndefined();
  });
});
