/**
 * The user `bash` requests running now, each with its request id, its owner (the transport that
 * sent it) and a cancel switch, so `abort_bash` can reach one id or all of an owner's requests,
 * and teardown can cancel everything and wait until each has answered.
 */
import type { CommandSource, Id } from "../../kernel/index.js";

export interface BashRequest {
  readonly id: Id | undefined;
  readonly source: CommandSource;
  readonly signal: AbortSignal;
  /** Call once, when the request has its result (or failed): it stops counting as running. */
  end(): void;
}

interface Entry {
  request: BashRequest;
  controller: AbortController;
  ended: Promise<void>;
}

export class BashRequests {
  readonly #running = new Set<Entry>();

  get size(): number {
    return this.#running.size;
  }

  begin(id: Id | undefined, source: CommandSource): BashRequest {
    const controller = new AbortController();
    let markEnded!: () => void;
    const ended = new Promise<void>((resolve) => (markEnded = resolve));
    const entry: Entry = {
      controller,
      ended,
      request: {
        id,
        source,
        signal: controller.signal,
        end: () => {
          this.#running.delete(entry);
          markEnded();
        },
      },
    };
    this.#running.add(entry);
    return entry.request;
  }

  /**
   * Cancels the owner's requests with that id (every one: ids are the client's to reuse), or all
   * of the owner's requests without an id. Returns how many were cancelled; none is not an error.
   */
  cancel(owner: CommandSource, requestId?: Id): number {
    let count = 0;
    for (const { request, controller } of this.#running) {
      if (request.source !== owner || (requestId !== undefined && request.id !== requestId)) continue;
      controller.abort();
      count++;
    }
    return count;
  }

  cancelAll(): void {
    for (const { controller } of this.#running) controller.abort();
  }

  /** Resolves once every request running now (or started meanwhile) has ended. */
  async drain(): Promise<void> {
    while (this.#running.size > 0) await Promise.all([...this.#running].map((entry) => entry.ended));
  }
}
