/**
 * Retrying a typed call's request as pi 1.6 does (`maxRetries`, `maxRetryDelayMs`): a lost
 * connection, a timeout, 408, 409, 429 and 5xx are retried (a status the caller names is not),
 * and a server's `x-should-retry: true|false` decides over the status, as the OpenAI and
 * Anthropic SDKs (and pi after them) do; a server's `retry-after` wait is honoured up to
 * `maxRetryDelayMs` (60 s unless set, 0: no limit) and a longer one fails at once, saying so.
 * Without one, Atomic's backoff (1 s, 2 s, …).
 */
import { retryAfterFromHeaders } from "../provider-kit/retry-delay.js";
import { providerErrorText } from "./wire-common.js";

const RETRY_BASE_MS = 1000;
const DEFAULT_MAX_RETRY_DELAY_MS = 60_000;

export interface RetryPolicy {
  maxRetries: number;
  maxRetryDelayMs?: number;
  signal: AbortSignal;
  /** Statuses that fail at once although they are normally retried. */
  noRetry?: readonly number[];
  /** The wire's name, in the message of a refused wait. */
  label?: string;
}

/** A failure with a status (or none: the connection, a timeout) and the response's headers. */
type Failure = { status?: unknown; headers?: { get(name: string): string | null } };

/** @internal Exported for its tests. */
export function retryable(error: unknown, noRetry: readonly number[]): boolean {
  const { status, headers } = (error ?? {}) as Failure;
  if (typeof status !== "number") return !(error instanceof Error && error.name === "AbortError");
  if (noRetry.includes(status)) return false;
  const serverSays = headers && typeof headers.get === "function" ? headers.get("x-should-retry") : null;
  if (serverSays === "true") return true;
  if (serverSays === "false") return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

export async function withRetries<T>(attempt: () => Promise<T>, policy: RetryPolicy): Promise<T> {
  for (let index = 0; ; index++) {
    try {
      return await attempt();
    } catch (error) {
      if (policy.signal.aborted || index >= policy.maxRetries || !retryable(error, policy.noRetry ?? [])) throw error;
      const headers = (error as Failure).headers;
      const asked = headers && typeof headers.get === "function" ? retryAfterFromHeaders(headers) : undefined;
      const cap = policy.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
      if (asked !== undefined && cap > 0 && asked > cap) {
        throw new Error(`Server requested ${Math.ceil(asked / 1000)}s retry delay (max: ${Math.ceil(cap / 1000)}s). ${providerErrorText(error, policy.label)}`);
      }
      await pause(asked ?? RETRY_BASE_MS * 2 ** index, policy.signal);
    }
  }
}

/** `signal`, and the per-attempt timeout when set; `timedOut()` tells the timeout from the caller's abort. */
export function attemptSignal(signal: AbortSignal, timeoutMs: number | undefined): { signal: AbortSignal; timedOut(): boolean } {
  if (timeoutMs === undefined) return { signal, timedOut: () => false };
  const timeout = AbortSignal.timeout(timeoutMs);
  return { signal: AbortSignal.any([signal, timeout]), timedOut: () => timeout.aborted && !signal.aborted };
}

/** pi's message for an attempt that ran out of time (retried like a lost connection). */
export function timeoutError(timeoutMs: number): Error {
  const error = new Error(`Request timed out after ${timeoutMs}ms`);
  error.name = "TimeoutError";
  return error;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal.removeEventListener("abort", stop);
      resolve();
    }
    function stop() {
      clearTimeout(timer);
      reject(signal.reason);
    }
    signal.addEventListener("abort", stop, { once: true });
  });
}
