/**
 * pi-ai's `AssistantMessageEventStream`: a push-based stream of unified assistant events that a
 * custom provider (`registerProvider` with `streamSimple`) fills and Atomic reads as its
 * `AssistantStream`. Events pushed before anyone reads are buffered; `result()` resolves with
 * the final message (`done` or `error`).
 */
import type { AssistantMessage, AssistantMessageEvent } from "../../../lib/llm/index.js";

export class AssistantMessageEventStream implements AsyncIterable<AssistantMessageEvent> {
  readonly #buffer: AssistantMessageEvent[] = [];
  #waiting: ((next: IteratorResult<AssistantMessageEvent>) => void) | undefined;
  #ended = false;
  #final: AssistantMessage | undefined;
  readonly #result: Promise<AssistantMessage>;
  #settle!: (message: AssistantMessage) => void;

  constructor() {
    this.#result = new Promise((resolve) => (this.#settle = resolve));
  }

  /** Adds an event; a `done` or `error` event is the last one. */
  push(event: AssistantMessageEvent): void {
    if (this.#ended) return;
    if (event.type === "done") this.#finish(event.message);
    else if (event.type === "error") this.#finish(event.error);
    const waiting = this.#waiting;
    if (waiting) {
      this.#waiting = undefined;
      waiting({ value: event, done: false });
    } else {
      this.#buffer.push(event);
    }
    if (this.#ended) this.#release();
  }

  /** Ends the stream (optionally with its final message) without a further event. */
  end(result?: AssistantMessage): void {
    if (result) this.#finish(result);
    this.#ended = true;
    this.#release();
  }

  /** The final message, once the stream has one. */
  result(): Promise<AssistantMessage> {
    return this.#result;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<AssistantMessageEvent> {
    for (;;) {
      const next = this.#buffer.shift();
      if (next) {
        yield next;
        continue;
      }
      if (this.#ended) return;
      const item = await new Promise<IteratorResult<AssistantMessageEvent>>((resolve) => (this.#waiting = resolve));
      if (item.done) return;
      yield item.value;
    }
  }

  #finish(message: AssistantMessage): void {
    this.#ended = true;
    if (!this.#final) {
      this.#final = message;
      this.#settle(message);
    }
  }

  /** A reader waiting for more learns that nothing more comes. */
  #release(): void {
    const waiting = this.#waiting;
    if (waiting && this.#buffer.length === 0) {
      this.#waiting = undefined;
      waiting({ value: undefined, done: true });
    }
  }
}

export function createAssistantMessageEventStream(): AssistantMessageEventStream {
  return new AssistantMessageEventStream();
}
