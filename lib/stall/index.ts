/**
 * Work that can never finish. Node emits 'beforeExit' when nothing is left that could wake the
 * process (no I/O, no timer that keeps it alive): a promise still pending then waits for
 * something that cannot happen, e.g. an extension factory awaiting an event that only comes after
 * it returns, or a tool awaiting a promise nobody settles. Without this the process would simply
 * end, exit code 0, with the run half done. The most recent waiter is answered first (the
 * innermost work, which the outer waits for); if the process runs dry again, the next one.
 */

const waiters: (() => void)[] = [];
let listening = false;

function answerLatest(): void {
  waiters.pop()?.();
}

const ignore = () => undefined;

/**
 * Calls `answer` if the process runs out of things to do while it is registered; the returned
 * function unregisters it. For a caller that owns the promise `answer` settles: registering costs
 * no promise of its own (extension handlers of per-delta events register once per call).
 */
export function whenStalled(answer: () => void): () => void {
  if (typeof process?.on !== "function") return ignore;
  if (!listening) {
    process.on("beforeExit", answerLatest);
    listening = true;
  }
  waiters.push(answer);
  return () => {
    // The latest is nearly always the one that settles first: found at once from the end.
    const index = waiters.lastIndexOf(answer);
    if (index >= 0) waiters.splice(index, 1);
  };
}

/**
 * `work`'s outcome, or `onStall()`'s if the process runs out of things to do while `work` is
 * pending. A slow `work` that still waits on I/O or a timer is never cut short.
 */
export function unlessStalled<T>(work: Promise<T>, onStall: () => T): Promise<T> {
  if (typeof process?.on !== "function") return work;
  return new Promise<T>((resolve, reject) => {
    const forget = whenStalled(() => {
      try {
        resolve(onStall());
      } catch (error) {
        reject(error);
      }
    });
    work.then(
      (value) => {
        forget();
        resolve(value);
      },
      (error: unknown) => {
        forget();
        reject(error);
      },
    );
  });
}
