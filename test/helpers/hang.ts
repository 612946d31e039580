/**
 * Waits in tests only catch hangs: a busy machine (the whole suite in parallel, other work on the
 * same cores) may take seconds for what takes milliseconds when idle, and that is not a bug. Every
 * helper that waits for a record, a request or a condition uses at least this long, whatever its
 * caller asked for; speed is measured in bench/, never asserted in a test.
 */
export const HANG_FLOOR_MS = 20_000;

/** `ms`, raised to the floor: a short wait asked for still only fails on a hang. */
export function hangTimeout(ms: number = HANG_FLOOR_MS): number {
  return Math.max(ms, HANG_FLOOR_MS);
}
