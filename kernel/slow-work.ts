/**
 * Waiting on work whose length the machine decides (a plugin's apply(), a boot tap, an extension's
 * import): a busy machine or a big conversation makes it slower, never different, so there is no
 * fixed deadline. While it runs long, a line on stderr says what is being waited for (at each
 * step of a schedule, then every minute); an optional limit (an embedder's, a test's, a user's
 * setting) ends the wait with the caller's error.
 */

/** When the notices come, in ms since the wait began; after the last, every minute. */
export const SLOW_NOTICE_MS = [10_000, 30_000, 60_000] as const;

/**
 * Notices due by a schedule. A timer checks once a second; work that blocks the event loop (a
 * synchronous transpile) calls `check()` itself so its notices still come on time. A step that
 * was missed while the loop was blocked is skipped, not caught up in a burst.
 */
export class SlowNotices {
  readonly #started = Date.now();
  readonly #steps: readonly number[];
  readonly #notice: (seconds: number) => void;
  #next = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(notice: (seconds: number) => void, steps: readonly number[] = SLOW_NOTICE_MS) {
    this.#notice = notice;
    this.#steps = steps;
    if (steps.length === 0) return;
    this.#timer = setInterval(() => this.check(), 1_000);
    this.#timer.unref();
  }

  /** Milliseconds since the wait began. */
  get elapsedMs(): number {
    return Date.now() - this.#started;
  }

  /** Prints a notice if one is due. */
  check(): void {
    if (this.#steps.length === 0) return;
    const elapsed = this.elapsedMs;
    if (elapsed < this.#stepAt(this.#next)) return;
    while (this.#stepAt(this.#next) <= elapsed) this.#next++;
    this.#notice(Math.round(elapsed / 1000));
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  #stepAt(index: number): number {
    const steps = this.#steps;
    return index < steps.length ? steps[index]! : steps[steps.length - 1]! + (index - steps.length + 1) * 60_000;
  }
}

export interface WatchOptions {
  /** Called with the whole seconds waited so far, each time a notice is due. */
  notice: (seconds: number) => void;
  /** No limit when undefined. */
  limitMs?: number | undefined;
  /** The error the wait rejects with once `limitMs` has passed. */
  onLimit?: () => Error;
  /** Notice schedule; default SLOW_NOTICE_MS. */
  noticeMs?: readonly number[];
}

/** Whether work returned a promise (or another thenable) to wait on, or is already over. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | undefined)?.then === "function";
}

/** `work`'s outcome; notices while it is pending, the limit's error if it comes first. Timers never keep the process alive. */
export function watchSlow<T>(work: Promise<T>, options: WatchOptions): Promise<T> {
  const notices = new SlowNotices(options.notice, options.noticeMs);
  let limit: NodeJS.Timeout | undefined;
  const limited =
    options.limitMs === undefined
      ? work
      : Promise.race([
          work,
          new Promise<never>((_, reject) => {
            limit = setTimeout(() => reject(options.onLimit?.() ?? new Error(`did not finish within ${options.limitMs} ms`)), options.limitMs);
            limit.unref();
          }),
        ]);
  return limited.finally(() => {
    notices.stop();
    clearTimeout(limit);
  });
}
