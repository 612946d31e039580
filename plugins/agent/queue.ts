/**
 * The steering and follow-up queues: user texts, and custom messages extensions send, waiting
 * for their delivery point in a run.
 */
import type { AgentMessage, CustomMessage, ImageContent } from "../../lib/llm/index.js";
import type { QueueMode } from "./api.js";

export interface QueuedMessage {
  text: string;
  images?: ImageContent[];
  /** Arrival order across both queues. */
  seq: number;
  /** An extension's message (sendMessage): delivered as is; not listed in queue_update, which shows the user's texts. */
  custom?: CustomMessage;
}

export class MessageQueues {
  readonly steering: QueuedMessage[] = [];
  readonly followUp: QueuedMessage[] = [];
  steeringMode: QueueMode;
  followUpMode: QueueMode;
  #seq = 0;

  constructor(steeringMode: QueueMode, followUpMode: QueueMode) {
    this.steeringMode = steeringMode;
    this.followUpMode = followUpMode;
  }

  push(kind: "steering" | "followUp", text: string, images?: ImageContent[]): void {
    const message: QueuedMessage = images && images.length > 0 ? { text, images, seq: this.#seq++ } : { text, seq: this.#seq++ };
    this[kind].push(message);
  }

  pushCustom(kind: "steering" | "followUp", message: CustomMessage): void {
    this[kind].push({ text: "", custom: message, seq: this.#seq++ });
  }

  /** One message, or all of them, per the queue's mode. */
  takeSteering(): QueuedMessage[] {
    return take(this.steering, this.steeringMode);
  }

  takeFollowUp(): QueuedMessage[] {
    return take(this.followUp, this.followUpMode);
  }

  /** Everything queued, in arrival order (messages queued while idle go ahead of the next prompt). */
  takeAll(): QueuedMessage[] {
    const all = [...this.steering, ...this.followUp].sort((a, b) => a.seq - b.seq);
    this.steering.length = 0;
    this.followUp.length = 0;
    return all;
  }

  get size(): number {
    return this.steering.length + this.followUp.length;
  }

  snapshot(): { steering: string[]; followUp: string[] } {
    const texts = (queue: QueuedMessage[]) => queue.filter((m) => !m.custom).map((m) => m.text);
    return { steering: texts(this.steering), followUp: texts(this.followUp) };
  }
}

function take(queue: QueuedMessage[], mode: QueueMode): QueuedMessage[] {
  if (queue.length === 0) return [];
  return mode === "all" ? queue.splice(0, queue.length) : queue.splice(0, 1);
}

/** Messages that arrived while a run streamed: stored when it ends (never between a tool call and its result). */
export class DeferredMessages {
  readonly #entries: { message: AgentMessage; stored: () => void }[] = [];

  /** Resolves once `flush` has stored the message. */
  wait(message: AgentMessage): Promise<void> {
    return new Promise((stored) => this.#entries.push({ message, stored }));
  }

  async flush(store: (message: AgentMessage) => Promise<void>): Promise<void> {
    for (const entry of this.#entries.splice(0, this.#entries.length)) {
      try {
        await store(entry.message);
      } finally {
        entry.stored();
      }
    }
  }
}
