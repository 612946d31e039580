/**
 * The delay a server asked for before a retry, read back from the error text a failed turn
 * keeps: the frame's `(retry after N ms)` note (from `retry-after-ms` / `retry-after` headers),
 * Gemini's `RetryInfo.retryDelay` and its "Please retry in Ns" wording, and OpenAI's "Please
 * try again in 1m30s". Pure, so the retry plugin can judge a stored message.
 */

/** How the provider frame records a `retry-after` header in the error text. */
export function retryAfterNote(delayMs: number): string {
  return `(retry after ${Math.max(0, Math.round(delayMs))} ms)`;
}

const NOTE = /\(retry after (\d+) ms\)/;
const RETRY_INFO = /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/;
const PLEASE_RETRY = /(?:retry|try again) in ((?:\d+(?:\.\d+)?h)?(?:\d+(?:\.\d+)?m(?!s))?(?:\d+(?:\.\d+)?(?:ms|s))?)\b/i;

/** Milliseconds the server asked to wait, or undefined when the error names no delay. */
export function requestedRetryDelayMs(message: string | undefined): number | undefined {
  if (!message) return undefined;
  const note = NOTE.exec(message);
  if (note) return Number(note[1]);
  const info = RETRY_INFO.exec(message);
  if (info) return Math.ceil(Number(info[1]) * 1000);
  const wording = PLEASE_RETRY.exec(message)?.[1];
  return wording ? durationMs(wording) : undefined;
}

/** "1h2m3.5s", "90s", "250ms" -> milliseconds; undefined for an empty match. */
function durationMs(text: string): number | undefined {
  let total = 0;
  let matched = false;
  for (const [, value, unit] of text.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) {
    matched = true;
    const n = Number(value);
    total += unit === "h" ? n * 3_600_000 : unit === "m" ? n * 60_000 : unit === "s" ? n * 1000 : n;
  }
  return matched ? Math.ceil(total) : undefined;
}

/**
 * Parses `retry-after-ms` (milliseconds) or `retry-after` (seconds, or an HTTP date) response
 * headers. Undefined when absent or unreadable.
 */
export function retryAfterFromHeaders(headers: { get(name: string): string | null }, now = Date.now()): number | undefined {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const after = headers.get("retry-after");
  if (after === null || after.trim() === "") return undefined;
  if (Number.isFinite(Number(after))) return Math.max(0, Number(after) * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
