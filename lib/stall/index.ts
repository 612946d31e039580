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

/**
 * `work`'s outcome, or `onStall()`'s if the process runs out of things to do while `work` is
 * pending. A slow `work` that still waits on I/O or a timer is never cut short.
 */
export function unlessStalled<T>(work: Promise<T>, onStall: () => T): Promise<T> {
  if (typeof process?.on !== "function") return work;
  if (!listening) {
    process.on("beforeExit", answerLatest);
    listening = true;
  }
  let waiter!: () => void;
  const stalled = new Promise<T>((resolve, reject) => {
    waiter = () => {
      try {
        resolve(onStall());
      } catch (error) {
        reject(error);
      }
    };
  });
  waiters.push(waiter);
  const forget = () => {
    const index = waiters.lastIndexOf(waiter);
    if (index >= 0) waiters.splice(index, 1);
  };
  return Promise.race([work, stalled]).finally(forget);
}
