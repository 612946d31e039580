/**
 * The only writer of stdout. Records are serialised the moment they are emitted (so a
 * snapshot can never run ahead of its event), written in order as whole lines, and a
 * congested pipe is reported as backpressure that streaming producers wait on.
 */
export type WriteFn = (text: string) => boolean;

export class RecordWriter {
  readonly #write: WriteFn;
  #congested: Promise<void> | undefined;
  readonly #onDrainNeeded: (resolve: () => void) => void;

  constructor(write: WriteFn, onDrainNeeded: (resolve: () => void) => void) {
    this.#write = write;
    this.#onDrainNeeded = onDrainNeeded;
  }

  writeRecord(record: object): void {
    this.writeLine(serialize(record));
  }

  writeLine(line: string): void {
    const accepted = this.#write(line + "\n");
    if (!accepted && !this.#congested) {
      this.#congested = new Promise<void>((resolve) =>
        this.#onDrainNeeded(() => {
          this.#congested = undefined;
          resolve();
        }),
      );
    }
  }

  /** Undefined when the pipe keeps up; otherwise resolves on drain. */
  pressure(): Promise<void> | undefined {
    return this.#congested;
  }
}

/**
 * `message_update` carries the same partial message twice (`message` and
 * `assistantMessageEvent.partial`): serialise it once and splice it into both places.
 */
export function serialize(record: object): string {
  const event = record as { type?: unknown; message?: unknown; assistantMessageEvent?: { partial?: unknown } };
  if (event.type === "message_update" && event.assistantMessageEvent && event.assistantMessageEvent.partial === event.message) {
    const snapshot = JSON.stringify(event.message);
    const { partial: _partial, ...delta } = event.assistantMessageEvent;
    const deltaJson = JSON.stringify(delta);
    return `{"type":"message_update","message":${snapshot},"assistantMessageEvent":${deltaJson.slice(0, -1)},"partial":${snapshot}}}`;
  }
  return JSON.stringify(record);
}
