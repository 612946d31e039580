/**
 * An ordered, non-blocking append queue for one file. Callers hand whole lines; lines queued
 * while a write is in flight are coalesced into the next single write call, so order is kept,
 * the event loop never blocks, and a crash can tear at most the last line.
 */
import { mkdir, open, type FileHandle } from "node:fs/promises";
import { dirname } from "node:path";

export interface WriterOptions {
  /** Written before the first chunk: "\n" when the existing file ends in a torn line. */
  prefix?: string;
  /** Write failures are reported here (once per distinct message) instead of thrown. */
  onError?: (error: Error) => void;
}

export class JsonlWriter {
  readonly path: string;
  readonly #onError: (error: Error) => void;
  readonly #reported = new Set<string>();
  #prefix: string;
  #pending: string[] = [];
  #running: Promise<void> | undefined;
  #handle: FileHandle | undefined;

  constructor(path: string, options: WriterOptions = {}) {
    this.path = path;
    this.#prefix = options.prefix ?? "";
    this.#onError = options.onError ?? (() => undefined);
  }

  /** Queues text (whole lines, each ending in "\n"). The file is opened on the first write. */
  write(text: string): void {
    this.#pending.push(text);
    this.#running ??= this.#drain();
  }

  /** Resolves once everything queued before (and during) the call is written. */
  async flush(): Promise<void> {
    while (this.#running) await this.#running;
  }

  /** Flushes and closes the file; a later write reopens it. */
  async close(): Promise<void> {
    await this.flush();
    const handle = this.#handle;
    this.#handle = undefined;
    await handle?.close();
  }

  async #drain(): Promise<void> {
    try {
      while (this.#pending.length > 0) {
        const text = this.#prefix + this.#pending.join("");
        this.#pending = [];
        try {
          await this.#writeAll(text);
          this.#prefix = "";
        } catch (error) {
          this.#report(error);
        }
      }
    } finally {
      this.#running = undefined;
    }
  }

  async #writeAll(text: string): Promise<void> {
    if (!this.#handle) {
      await mkdir(dirname(this.path), { recursive: true });
      this.#handle = await open(this.path, "a");
    }
    const buffer = Buffer.from(text, "utf8");
    let offset = 0;
    // One write call in practice; the loop only matters for a short write (disk nearly full).
    while (offset < buffer.length) {
      const { bytesWritten } = await this.#handle.write(buffer, offset, buffer.length - offset);
      offset += bytesWritten;
    }
  }

  #report(error: unknown): void {
    const err = error instanceof Error ? error : new Error(String(error));
    if (this.#reported.has(err.message)) return;
    this.#reported.add(err.message);
    this.#onError(err);
  }
}
