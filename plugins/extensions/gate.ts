/**
 * Keeps a slow extension from blocking `abort`: every handler, command and tool an extension
 * runs is raced against the current "abort epoch". An `abort` (the hook) ends the epoch: whatever
 * extension work is pending resolves at once with its fallback (the hook's pass-through value, a
 * veto for guards) and its dialogs are dismissed; the work itself may go on in the background,
 * its result ignored. Work the extension asked for itself (a session switch that aborts the run)
 * holds the epoch open. Work that can never settle (nothing left running could wake it) is
 * answered the same way when its caller says how.
 */
import { whenStalled } from "../../lib/stall/index.js";

export interface RunOptions<T> {
  /** Releases the work too when it aborts. */
  signal?: AbortSignal | undefined;
  /** Arrival number of the command the work is for: one read before an abort that already ran starts released. */
  seq?: number | undefined;
  /** The answer for work that can never settle; without it such work keeps waiting. */
  stalled?: () => T;
}

export class HandlerGate {
  /** How extension code is entered (the agent it runs for: see load-module.ts). */
  readonly #enter: <T>(work: () => T) => T;
  #controller = new AbortController();
  #holds = 0;
  /** Arrival number of the latest abort: work started by a command read before it starts released. */
  #abortSeq = 0;

  constructor(enter: <T>(work: () => T) => T = (work) => work()) {
    this.#enter = enter;
  }

  /** Aborted when the epoch this work started in ends. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Ends the epoch (the `abort` hook), unless an extension's own action is under way. */
  release(seq = 0): void {
    if (this.#holds > 0) return;
    this.#abortSeq = Math.max(this.#abortSeq, seq);
    this.#controller.abort();
    this.#controller = new AbortController();
  }

  /**
   * Runs `work`; settles with `released()` instead (its value, or its throw) if the epoch ends
   * first or `signal` aborts, and with `stalled()` if work that returned a promise is still
   * pending when the process runs dry (lib/stall: nothing is left that could settle it).
   */
  run<T>(work: () => T | Promise<T>, released: () => T, options: RunOptions<T> = {}): Promise<T> {
    const { signal, seq, stalled } = options;
    const epoch = this.signal;
    // A command read before an abort that already ran (both in one read from stdin) starts released.
    if (epoch.aborted || signal?.aborted || (seq !== undefined && seq < this.#abortSeq)) return Promise.resolve().then(released);
    return new Promise<T>((resolve, reject) => {
      let forgetStall: (() => void) | undefined;
      const cleanup = () => {
        epoch.removeEventListener("abort", onAbort);
        signal?.removeEventListener("abort", onAbort);
        forgetStall?.();
      };
      const settleWith = (fallback: () => T) => {
        cleanup();
        try {
          resolve(fallback());
        } catch (error) {
          reject(error);
        }
      };
      const onAbort = () => settleWith(released);
      epoch.addEventListener("abort", onAbort, { once: true });
      signal?.addEventListener("abort", onAbort, { once: true });
      Promise.resolve()
        .then(() => {
          const value = this.#enter(work);
          // Only a promise can stall: a synchronous answer (most per-delta handlers) registers nothing.
          if (stalled && typeof (value as PromiseLike<T> | undefined)?.then === "function") forgetStall = whenStalled(() => settleWith(stalled));
          return value;
        })
        .then(
          (value) => {
            cleanup();
            resolve(value);
          },
          (error: unknown) => {
            cleanup();
            reject(error);
          },
        );
    });
  }

  /** Keeps the epoch open while `work` runs: an abort it causes itself does not release its caller. */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    this.#holds++;
    try {
      return await work();
    } finally {
      this.#holds--;
    }
  }
}
