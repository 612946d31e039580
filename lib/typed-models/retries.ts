/**
 * Retrying a typed call's request as pi 1.6 does (`maxRetries`, `maxRetryDelayMs`): a lost
 * connection, a timeout, 408, 409, 429 and 5xx are retried (a status the caller names is not),
 * and a server's `x-should-retry: true|false` decides over the status, as the OpenAI and
 * Anthropic SDKs (and pi after them) do; a server's `retry-after` wait is honoured up to
 * `maxRetryDelayMs` (60 s unless set, 0: no limit) and a longer one fails at once, saying so.
 * Without one, pi's backoff: 0.5 s doubling per retry up to 8 s, each shortened by up to a
 * quarter at random so that clients failing together do not retry together. `maxRetryDelayMs`
 * bounds only the server's wait, never this backoff (pi's rule).
 */
import { retryAfterFromHeaders } from "../provider-kit/retry-delay.js";
import { providerErrorText } from "./wire-common.js";

const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 8000;
/** The largest share of a backoff step taken off at random. */
const BACKOFF_JITTER = 0.25;
const DEFAULT_MAX_RETRY_DELAY_MS = 60_000;

export interface RetryPolicy {
  maxRetries: number;
  maxRetryDelayMs?: number;
  signal: AbortSignal;
  /** Statuses that fail at once although they are normally retried. */
  noRetry?: readonly number[];
  /** The wire's name, in the message of a refused wait. */
  label?: string;
  /** The jitter's source, in [0, 1) (Math.random unless a test fixes it). */
  random?: () => number;
  /** Waits between attempts (a real timer unless a test records the schedule). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
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
      await (policy.sleep ?? pause)(retryDelayMs(error, index, policy), policy.signal);
    }
  }
}

/** pi's wait before retry `retryIndex` (0 first) when the server names none. */
export function backoffDelayMs(retryIndex: number, random: () => number = Math.random): number {
  return Math.min(BACKOFF_BASE_MS * 2 ** retryIndex, BACKOFF_CAP_MS) * (1 - random() * BACKOFF_JITTER);
}

/**
 * The wait before retry `retryIndex`: the server's `retry-after-ms` / `retry-after` when it sends
 * one (refused, by throwing, past `maxRetryDelayMs`), else the backoff.
 * @internal Exported for its tests.
 */
export function retryDelayMs(error: unknown, retryIndex: number, policy: Pick<RetryPolicy, "maxRetryDelayMs" | "label" | "random">): number {
  const headers = (error as Failure | null)?.headers;
  const asked = headers && typeof headers.get === "function" ? retryAfterFromHeaders(headers) : undefined;
  if (asked === undefined) return backoffDelayMs(retryIndex, policy.random);
  const cap = policy.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
  if (cap > 0 && asked > cap) {
    throw new Error(`Server requested ${Math.ceil(asked / 1000)}s retry delay (max: ${Math.ceil(cap / 1000)}s). ${providerErrorText(error, policy.label)}`);
  }
  return asked;
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
