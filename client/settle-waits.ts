/**
 * The client's waits for `agent_settled` (`waitForIdle`, `collectEvents`, `promptAndWait`): each
 * collects the events until the settle, and ends with a timeout, or at once when the agent is
 * gone (its process exited, the client stopped, the server handle closed), since no settle can
 * come then. A wait begun after that rejects at once too, with the same error.
 */
import type { Event } from "../lib/protocol-types/index.js";

export interface Collector {
  events: Promise<Event[]>;
  /** Resolves the wait with the events so far. */
  finish(): void;
}

type Subscribe = (listener: (event: Event) => void) => () => void;

export class SettleWaits {
  readonly #pending = new Set<(error: Error) => void>();
  #gone: Error | undefined;

  /** Why no agent_settled can come any more, if none can. */
  get gone(): Error | undefined {
    return this.#gone;
  }

  /** Events until `agent_settled` (or `finish()`); `timeoutError()` after `timeout` ms, the agent's end at once. */
  collect(subscribe: Subscribe, timeout: number, timeoutError: () => Error): Collector {
    const events: Event[] = [];
    let finish = () => undefined as void;
    const promise = new Promise<Event[]>((resolve, reject) => {
      if (this.#gone) return reject(this.#gone);
      const end = (outcome: () => void) => {
        clearTimeout(timer);
        unsubscribe();
        this.#pending.delete(fail);
        outcome();
      };
      const fail = (error: Error) => end(() => reject(error));
      const timer = setTimeout(() => fail(timeoutError()), timeout);
      const unsubscribe = subscribe((event) => {
        if ((event.type as string) !== "agent_settled") return void events.push(event);
        finish();
      });
      this.#pending.add(fail);
      finish = () => end(() => resolve(events));
    });
    return { events: promise, finish: () => finish() };
  }

  /** The agent is gone: every pending wait rejects with `error`, and every later one. */
  end(error: Error): void {
    this.#gone = error;
    for (const fail of [...this.#pending]) fail(error);
  }

  /** A new agent behind the same client (started again): waits wait again. */
  reopen(): void {
    this.#gone = undefined;
  }
}

/** `. Stderr: <its last 2,000 characters>`, for an error; nothing when the agent wrote none. */
export function stderrDetail(stderr: string): string {
  const text = stderr.trimEnd();
  if (!text) return "";
  return `. Stderr: ${text.length > 2_000 ? `...${text.slice(-2_000)}` : text}`;
}
