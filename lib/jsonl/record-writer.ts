/**
 * The only writer of stdout. Records are serialised the moment they are emitted (so a
 * snapshot can never run ahead of its event), written in order as whole lines, and a
 * congested pipe is reported as backpressure that streaming producers wait on.
 */
import { stringifyRecord } from "./deep-json.js";
import { withRawId } from "./raw-id.js";
import { snapshotParts, type Part } from "./snapshot-cache.js";

export interface LineSink {
  /** Writes pieces that together form whole lines; returns false when the pipe is congested. */
  write(parts: (string | Buffer)[]): boolean;
  onceDrain(callback: () => void): void;
}

export class RecordWriter {
  readonly #sink: LineSink;
  #congested: Promise<void> | undefined;

  constructor(sink: LineSink) {
    this.#sink = sink;
  }

  /** `rawId`: the request id's original JSON text, when re-serialising the number would change it. */
  writeRecord(record: object, rawId?: string): void {
    this.#track(this.#sink.write(rawId ? [withRawId(stringifyRecord(record), rawId) + "\n"] : serializeParts(record)));
  }

  /** A record already serialised (one line of JSON, without its line feed). */
  writeJson(json: string): void {
    this.#track(this.#sink.write([json + "\n"]));
  }

  #track(accepted: boolean): void {
    if (accepted || this.#congested) return;
    this.#congested = new Promise<void>((resolve) =>
      this.#sink.onceDrain(() => {
        this.#congested = undefined;
        resolve();
      }),
    );
  }

  /** Undefined when the pipe keeps up; otherwise resolves on drain. */
  pressure(): Promise<void> | undefined {
    return this.#congested;
  }
}

type UpdateRecord = { type?: unknown; message?: unknown; usage?: unknown; assistantMessageEvent?: { partial?: unknown } };

/** The keys the shared-snapshot form writes; a record with any other key takes the general path. */
const UPDATE_KEYS = new Set(["type", "message", "usage", "assistantMessageEvent"]);

function isSharedSnapshotUpdate(record: object): record is UpdateRecord & { message: Record<string, unknown> } {
  const event = record as UpdateRecord;
  // A delta-mode update has neither snapshot: undefined === undefined is not a shared one.
  if (
    !(
      event.type === "message_update" &&
      typeof event.message === "object" &&
      event.message !== null &&
      !!event.assistantMessageEvent &&
      event.assistantMessageEvent.partial === event.message
    )
  )
    return false;
  for (const key in event) if (!UPDATE_KEYS.has(key)) return false;
  return true;
}

/**
 * A record as line pieces. `message_update` carries the same partial message twice (`message`
 * and `assistantMessageEvent.partial`): it is serialised and UTF-8 encoded once, and the same
 * bytes are written in both places.
 */
export function serializeParts(record: object): Part[] {
  if (!isSharedSnapshotUpdate(record)) return [stringifyRecord(record) + "\n"];
  const snapshot = snapshotParts(record.message);
  const { partial: _partial, ...delta } = record.assistantMessageEvent!;
  const deltaJson = JSON.stringify(delta);
  // pi 1.x's `usage` (a dozen numbers) is written as is, in the event's key order.
  const usage = record.usage === undefined ? "" : `,"usage":${JSON.stringify(record.usage)}`;
  return ['{"type":"message_update","message":', ...snapshot, `${usage},"assistantMessageEvent":${deltaJson.slice(0, -1)},"partial":`, ...snapshot, "}}\n"];
}

/** The whole line as one string (tests and diagnostics). */
export function serialize(record: object): string {
  return serializeParts(record)
    .map((part) => (typeof part === "string" ? part : part.toString("utf8")))
    .join("")
    .slice(0, -1);
}
