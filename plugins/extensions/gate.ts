/**
 * Keeps a slow extension from blocking `abort`: every handler, command and tool an extension
 * runs is raced against the current "abort epoch". An `abort` (the hook) ends the epoch: whatever
 * extension work is pending resolves at once with its fallback (the hook's pass-through value, a
 * veto for guards) and its dialogs are dismissed; the work itself may go on in the background,
 * its result ignored. Work the extension asked for itself (a session switch that aborts the run)
 * holds the epoch open.
 */
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
   * first or `signal` aborts.
   */
  run<T>(work: () => T | Promise<T>, released: () => T, signal?: AbortSignal, seq?: number): Promise<T> {
    const epoch = this.signal;
    // A command read before an abort that already ran (both in one read from stdin) starts released.
    if (epoch.aborted || signal?.aborted || (seq !== undefined && seq < this.#abortSeq)) return Promise.resolve().then(released);
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        cleanup();
        try {
          resolve(released());
        } catch (error) {
          reject(error);
        }
      };
      const cleanup = () => {
        epoch.removeEventListener("abort", onAbort);
        signal?.removeEventListener("abort", onAbort);
      };
      epoch.addEventListener("abort", onAbort, { once: true });
      signal?.addEventListener("abort", onAbort, { once: true });
      Promise.resolve()
        .then(() => this.#enter(work))
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
