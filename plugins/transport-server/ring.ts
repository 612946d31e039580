/**
 * An agent's last events, kept for replay (docs/server.md, Attach and replay): bounded both in records
 * and in bytes; the oldest go first. Events are kept serialised (a streamed message's snapshot
 * changes after its event, so only the text written then is the event).
 */
import type { Part } from "./listener.js";

export interface RingEntry {
  seq: number;
  type: string;
  /** The record as written, `agent` and `seq` included. */
  parts: readonly Part[];
  bytes: number;
  /** `message_update` only: the delta form (`set_event_options {messageUpdates: "delta"}`). */
  delta?: string;
}

export type ReplayAnswer = { gap: true } | { gap: false; entries: RingEntry[] };

export class ReplayRing {
  readonly #maxRecords: number;
  readonly #maxBytes: number;
  #entries: RingEntry[] = [];
  #head = 0;
  #bytes = 0;
  /** The seq of the latest event (kept, or already dropped). */
  #last = 0;

  constructor(maxRecords: number, maxBytes: number) {
    this.#maxRecords = maxRecords;
    this.#maxBytes = maxBytes;
  }

  get last(): number {
    return this.#last;
  }

  get size(): number {
    return this.#entries.length - this.#head;
  }

  get bytes(): number {
    return this.#bytes;
  }

  push(entry: RingEntry): void {
    this.#last = entry.seq;
    this.#entries.push(entry);
    this.#bytes += entryBytes(entry);
    while (this.size > 0 && (this.size > this.#maxRecords || this.#bytes > this.#maxBytes)) {
      this.#bytes -= entryBytes(this.#entries[this.#head]!);
      this.#entries[this.#head++] = undefined as unknown as RingEntry;
    }
    // Drop the consumed slots now and then: amortised constant time per event.
    if (this.#head > 1024 && this.#head * 2 > this.#entries.length) {
      this.#entries = this.#entries.slice(this.#head);
      this.#head = 0;
    }
  }

  /** The events after `after`, or a gap when some of them are gone (or `after` is ahead of the agent). */
  after(after: number): ReplayAnswer {
    if (after > this.#last) return { gap: true };
    const oldest = this.size > 0 ? this.#entries[this.#head]!.seq : this.#last + 1;
    if (after < oldest - 1) return { gap: true };
    return { gap: false, entries: this.#entries.slice(this.#head + (after - (oldest - 1))) };
  }
}

function entryBytes(entry: RingEntry): number {
  return entry.bytes + (entry.delta?.length ?? 0);
}
