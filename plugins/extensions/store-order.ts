/**
 * Keeps what extensions store in the session in the order they asked for it. A message
 * `sendMessage` stores while the agent is idle goes through the `message_end` taps before it is
 * written (extension handlers first, so the session records what they settle on), which takes a
 * few ticks once any extension listens to `message_end`; an `appendEntry` right after it writes at
 * once. In pi both are written as called. So a direct write waits behind the stores still under
 * way (and runs at once when there are none), and a command's response waits for them too.
 */
export class StoreOrder {
  #tail: Promise<void> = Promise.resolve();
  #pending = 0;

  /** Runs `work` after the stores before it (at once when there are none); settles with it. */
  store(work: () => Promise<void>): Promise<void> {
    this.#pending++;
    const run = (this.#pending === 1 ? startNow(work) : this.#tail.then(work)).finally(() => this.#pending--);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /** Runs `write` at once when nothing is being stored, else once what is has been. */
  after(write: () => void, onError: (error: unknown) => void): void {
    if (this.#pending === 0) {
      write();
      return;
    }
    this.#pending++;
    const run = this.#tail.then(write).finally(() => this.#pending--);
    this.#tail = run.catch(onError);
  }

  /** Settles once everything asked for so far is stored (or has failed, reported by its caller). */
  settled(): Promise<void> {
    return this.#tail;
  }
}

/** `work()` started in this tick; a synchronous throw becomes its rejection. */
function startNow(work: () => Promise<void>): Promise<void> {
  try {
    return work();
  } catch (error) {
    return Promise.reject(error);
  }
}
