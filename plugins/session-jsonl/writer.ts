/**
 * An ordered, non-blocking append queue for one file. Callers hand whole lines; lines queued
 * while a write is in flight are coalesced into the next single write call, so order is kept,
 * the event loop never blocks, and a crash can tear at most the last line. A failed write
 * (disk full, directory missing) keeps whatever did not reach the file and writes it first on
 * the next append or on close, so a transient failure neither loses entries nor glues a torn
 * line to the next one. The file is created 0600 (folders 0700): a transcript is private.
 * A new file appears under its name only with its first write in it (written under a hidden
 * `.partial` name, then renamed), so a kill between creating and writing it cannot leave an
 * empty session file that no longer loads.
 */
import { rename, type FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { openRegularForWrite } from "../../lib/regular-file/index.js";
import { makeFolder } from "../../lib/make-folder/index.js";

export interface WriterOptions {
  /** Written before the first chunk: "\n" when the existing file ends in a torn line. */
  prefix?: string;
  /** Write failures are reported here (once per distinct message while failing) instead of thrown. */
  onError?: (error: Error) => void;
  /** The first write that succeeds (at all, or after failures). */
  onSuccess?: () => void;
  /** The file does not exist yet: create it complete with its first write. */
  fresh?: boolean;
  /** Runs before the file is opened (the session lock); a throw is a failed write, retried by the next one. */
  beforeOpen?: () => Promise<void>;
}

export class JsonlWriter {
  readonly path: string;
  readonly #onError: (error: Error) => void;
  readonly #onSuccess: () => void;
  readonly #beforeOpen: (() => Promise<void>) | undefined;
  /** Messages reported during the current run of failures; empty while writes succeed. */
  readonly #reported = new Set<string>();
  #succeeded = false;
  /** Where the first write goes for a fresh file, until it is renamed to `path`. */
  #partial: string | undefined;
  #prefix: string;
  #pending: string[] = [];
  /** Bytes of a failed write that are not in the file yet: written before anything else. */
  #retry: Buffer | undefined;
  #running: Promise<void> | undefined;
  #handle: FileHandle | undefined;
  #lastError: Error | undefined;

  constructor(path: string, options: WriterOptions = {}) {
    this.path = path;
    this.#prefix = options.prefix ?? "";
    this.#onError = options.onError ?? (() => undefined);
    this.#onSuccess = options.onSuccess ?? (() => undefined);
    this.#beforeOpen = options.beforeOpen;
    if (options.fresh) this.#partial = join(dirname(path), `.${basename(path)}.partial`);
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

  /**
   * One more try for bytes a failed write left behind, then waits for everything queued: the
   * error that still keeps some from the file, or undefined when all of it is written.
   */
  async retry(): Promise<Error | undefined> {
    if (this.#retry) this.#running ??= this.#drain();
    await this.flush();
    return this.#retry ? (this.#lastError ?? new Error("a write failed")) : undefined;
  }

  /** Flushes (one more try for bytes a failed write left behind) and closes the file; a later write reopens it. */
  async close(): Promise<void> {
    await this.retry();
    const handle = this.#handle;
    this.#handle = undefined;
    await handle?.close();
  }

  async #drain(): Promise<void> {
    try {
      while (this.#pending.length > 0 || this.#retry) {
        const fresh = Buffer.from(this.#prefix + this.#pending.join(""), "utf8");
        const buffer = this.#retry ? Buffer.concat([this.#retry, fresh]) : fresh;
        this.#pending = [];
        this.#prefix = "";
        this.#retry = undefined;
        const written = await this.#writeAll(buffer);
        if (written < buffer.length) {
          // Lines queued meanwhile stay queued behind the unwritten bytes; the next append retries.
          this.#retry = buffer.subarray(written);
          break;
        }
        if (!this.#succeeded || this.#reported.size > 0) {
          this.#succeeded = true;
          this.#reported.clear();
          this.#onSuccess();
        }
      }
    } finally {
      this.#running = undefined;
    }
  }

  /** Bytes written before a failure (reported), or all of them. */
  async #writeAll(buffer: Buffer): Promise<number> {
    let offset = 0;
    try {
      if (!this.#handle) {
        await makeFolder(dirname(this.path), 0o700);
        await this.#beforeOpen?.();
        // Appending to a FIFO or device would block or go nowhere: regular files only.
        this.#handle = await openRegularForWrite(this.#partial ?? this.path, { how: "append", mode: 0o600 });
      }
      // One write call in practice; the loop only matters for a short write (disk nearly full).
      while (offset < buffer.length) {
        const { bytesWritten } = await this.#handle.write(buffer, offset, buffer.length - offset);
        offset += bytesWritten;
        if (this.#partial !== undefined) {
          // The open descriptor follows the rename: later appends go to the real file.
          await rename(this.#partial, this.path);
          this.#partial = undefined;
        }
      }
    } catch (error) {
      this.#report(error);
    }
    return offset;
  }

  #report(error: unknown): void {
    const err = error instanceof Error ? error : new Error(String(error));
    this.#lastError = err;
    if (this.#reported.has(err.message)) return;
    this.#reported.add(err.message);
    this.#onError(err);
  }
}
