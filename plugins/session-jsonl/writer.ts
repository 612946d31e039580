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
 *
 * Given the whole file's text (`rewriteFrom`), it also checks after each batch that the path
 * still names the file it appends to (one stat per batch, never per line or token): a file
 * deleted or moved away is written again whole at its path; another file put there is left as
 * it is, and writing fails (lines kept) until the path is free or names this file again.
 */
import { rename, type FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { openRegularForWrite } from "../../lib/regular-file/index.js";
import { makeFolder } from "../../lib/make-folder/index.js";
import { identityOf, pathState, PathTakenError, writeWholeFile, type FileIdentity } from "./whole-file.js";

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
  /** The file was gone from its path (deleted, moved away) and has been written again whole there. */
  onRewritten?: () => void;
}

const REPLACED = "it was replaced by another file while in use, which is left as it is: this session's entries are kept in memory until that path is free (move that file away)";

/** The path stopped naming the file being appended to. */
type Lost = "gone" | "replaced" | "unknown";

export class JsonlWriter {
  readonly path: string;
  readonly #onError: (error: Error) => void;
  readonly #onSuccess: () => void;
  readonly #beforeOpen: (() => Promise<void>) | undefined;
  readonly #onRewritten: () => void;
  /** The whole file's text, from memory: what is written again when the file left its path. */
  #snapshot: (() => Iterable<string>) | undefined;
  /** The file written to (kept across close, so a reopen notices a replacement). */
  #identity: FileIdentity | undefined;
  /** Set when the path no longer names that file: the next drain settles it before anything else. */
  #lost: Lost | undefined;
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
    this.#onRewritten = options.onRewritten ?? (() => undefined);
    if (options.fresh) this.#partial = join(dirname(path), `.${basename(path)}.partial`);
  }

  /** Queues text (whole lines, each ending in "\n"). The file is opened on the first write. */
  write(text: string): void {
    this.#pending.push(text);
    this.#running ??= this.#drain();
  }

  /**
   * Turns on the check that the path still names the file: `text` gives the whole file from
   * memory (every line, in order, including those queued), read at once when it is called.
   */
  rewriteFrom(text: () => Iterable<string>): void {
    this.#snapshot = text;
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
    if (this.#retry || this.#lost) this.#running ??= this.#drain();
    await this.flush();
    return this.#retry || this.#lost ? (this.#lastError ?? new Error("a write failed")) : undefined;
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
      while (this.#pending.length > 0 || this.#retry || this.#lost) {
        if (this.#lost) {
          if (await this.#settleLost()) continue;
          break;
        }
        const fresh = Buffer.from(this.#prefix + this.#pending.join(""), "utf8");
        const buffer = this.#retry ? Buffer.concat([this.#retry, fresh]) : fresh;
        this.#pending = [];
        this.#prefix = "";
        this.#retry = undefined;
        const written = await this.#writeAll(buffer);
        if (this.#lost) {
          // Kept until the whole file is written again (it holds them), or written as usual if the file comes back.
          this.#retry = buffer.subarray(written);
          continue;
        }
        if (written < buffer.length) {
          // Lines queued meanwhile stay queued behind the unwritten bytes; the next append retries.
          this.#retry = buffer.subarray(written);
          break;
        }
        if (this.#snapshot && (await this.#leftItsPath())) continue;
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
        if (this.#snapshot && this.#partial === undefined && (await this.#leftItsPath())) return 0;
        // Appending to a FIFO or device would block or go nowhere: regular files only.
        this.#handle = await openRegularForWrite(this.#partial ?? this.path, { how: "append", mode: 0o600 });
        if (this.#snapshot) this.#identity = identityOf(await this.#handle.stat());
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

  /** Whether the path stopped naming the file written to (then `#lost` says how). */
  async #leftItsPath(): Promise<boolean> {
    const state = await pathState(this.path, this.#identity);
    if (state === "ours" || state === "unknown") return false;
    this.#lost = state;
    return true;
  }

  /**
   * Settles a lost path, true when writing may go on: the file is back, or the path was free
   * and the whole file is written there again. A path holding another file is left alone.
   */
  async #settleLost(): Promise<boolean> {
    const state = await pathState(this.path, this.#identity);
    if (state === "ours") {
      this.#lost = undefined;
      return true;
    }
    this.#lost = state;
    if (state !== "gone") {
      this.#report(new Error(state === "replaced" ? REPLACED : "it left its path while in use, and the path cannot be checked now"));
      return false;
    }
    // Memory's text holds everything queued so far (taken in the same turn); what is queued while
    // it is written comes after it. Nothing queued is dropped before the text is in place.
    const text = this.#snapshot!();
    const covered = this.#pending.length;
    try {
      await makeFolder(dirname(this.path), 0o700);
      await this.#beforeOpen?.();
      const handle = await writeWholeFile(this.path, join(dirname(this.path), `.${basename(this.path)}.partial`), text);
      const previous = this.#handle;
      this.#handle = handle;
      this.#identity = identityOf(await handle.stat());
      this.#partial = undefined;
      await previous?.close().catch(() => undefined);
    } catch (error) {
      if (error instanceof PathTakenError) this.#lost = "replaced";
      this.#report(error instanceof PathTakenError ? new Error(REPLACED) : error);
      return false;
    }
    this.#pending = this.#pending.slice(covered);
    this.#retry = undefined;
    this.#prefix = "";
    this.#lost = undefined;
    this.#succeeded = true;
    this.#reported.clear();
    this.#onRewritten();
    return true;
  }

  #report(error: unknown): void {
    const err = error instanceof Error ? error : new Error(String(error));
    this.#lastError = err;
    if (this.#reported.has(err.message)) return;
    this.#reported.add(err.message);
    this.#onError(err);
  }
}
