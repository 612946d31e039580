/**
 * Polling a device-code login (RFC 8628) until the user has entered the code: at the server's
 * interval (5 s when it names none, never under 1 s), slower after each `slow_down` (the interval
 * the server names, else 5 s more), until the code expires or the login is cancelled.
 */
import { LOGIN_CANCELLED } from "./http.js";

export type PollResult<T> = { status: "complete"; value: T } | { status: "pending" } | { status: "slow_down"; intervalSeconds?: number } | { status: "failed"; message: string };

export interface PollOptions<T> {
  intervalSeconds?: number;
  expiresInSeconds?: number;
  /** Wait one interval before the first poll (the user cannot have entered the code yet). */
  waitFirst?: boolean;
  signal: AbortSignal;
  poll(): Promise<PollResult<T>>;
}

const MIN_INTERVAL_MS = 1_000;
const DEFAULT_INTERVAL_SECONDS = 5;
const SLOW_DOWN_STEP_MS = 5_000;

export async function pollDeviceCode<T>(options: PollOptions<T>): Promise<T> {
  const deadline = options.expiresInSeconds ? Date.now() + options.expiresInSeconds * 1000 : Number.POSITIVE_INFINITY;
  let intervalMs = Math.max(MIN_INTERVAL_MS, Math.floor((options.intervalSeconds ?? DEFAULT_INTERVAL_SECONDS) * 1000));
  let slowedDown = false;
  if (options.waitFirst) await sleep(Math.min(intervalMs, Math.max(0, deadline - Date.now())), options.signal);
  while (Date.now() < deadline) {
    if (options.signal.aborted) throw new Error(LOGIN_CANCELLED);
    const result = await options.poll();
    if (result.status === "complete") return result.value;
    if (result.status === "failed") throw new Error(result.message);
    if (result.status === "slow_down") {
      slowedDown = true;
      const named = result.intervalSeconds;
      intervalMs = named && Number.isFinite(named) && named > 0 ? Math.max(MIN_INTERVAL_MS, Math.floor(named * 1000)) : intervalMs + SLOW_DOWN_STEP_MS;
    }
    const left = deadline - Date.now();
    if (left <= 0) break;
    await sleep(Math.min(intervalMs, left), options.signal);
  }
  throw new Error(
    slowedDown
      ? "The device code expired after the server asked to poll more slowly; a clock that drifts (WSL, a virtual machine) often causes this: sync it and log in again."
      : "The device code expired before the sign-in was completed: log in again.",
  );
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error(LOGIN_CANCELLED));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error(LOGIN_CANCELLED));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
