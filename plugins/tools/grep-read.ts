/**
 * Reading files for grep. Small files are read whole, many at a time: fs/promises costs a
 * FileHandle and several promise hops per file (about 4 ms per 20 files here), the callback API
 * with a few dozen reads in flight is ~40x faster on a tree of small files. Larger files are
 * read as a stream of line-aligned chunks, so memory stays bounded whatever their size and none
 * is skipped; a line too long to hold is searched only up to MAX_LINE_BYTES (and reported).
 */
import { close, constants, fstat, open, read } from "node:fs";
import { openRegularForRead } from "../../lib/regular-file/index.js";

/** Non-blocking open: opening a FIFO for reading would otherwise wait for a writer, forever. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** Files up to this size are read whole (and ahead); larger ones are streamed. */
export const WHOLE_FILE_BYTES = 1024 * 1024;
/** Streamed files are handed out in chunks of about this size, cut after a line end. */
export const CHUNK_BYTES = 1024 * 1024;
/** A line longer than this is searched only up to here: holding it whole could exhaust memory. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;
const READ_AHEAD = 48;
const SNIFF_BYTES = 8 * 1024;

/** A file's bytes; `{stream}` for a large file to read with `streamChunks`; null for binary, unreadable or non-regular files. */
export type Searchable = Buffer | { stream: string } | null;

/** Small files read but not yet taken are held up to this many bytes. */
const HOLD_BYTES = 16 * 1024 * 1024;

/**
 * Reads small files ahead, in the background and in order: up to READ_AHEAD reads in flight and
 * HOLD_BYTES held, whatever the consumer is doing (the regex worker searches one batch while the
 * next is being read). `get` must be called with 0, 1, 2, ...
 */
export class AheadReader {
  readonly #paths: readonly string[];
  /** Finished reads not taken yet, by index. */
  readonly #done = new Map<number, Searchable>();
  #next = 0;
  #inFlight = 0;
  #held = 0;
  #closed = false;
  #wanted: { index: number; resolve: (content: Searchable) => void } | undefined;

  readonly #mayFollow: ((path: string) => Promise<boolean>) | undefined;

  /** `mayFollow`: asked before a symlinked file is read (the sandbox: where it leads may be denied); absent, links are followed. */
  constructor(paths: readonly string[], mayFollow?: (path: string) => Promise<boolean>) {
    this.#paths = paths;
    this.#mayFollow = mayFollow;
    this.#pump();
  }

  /** The content of `paths[index]`. */
  get(index: number): Promise<Searchable> {
    if (this.#done.has(index)) {
      const content = this.#done.get(index)!;
      this.#done.delete(index);
      this.#held -= sizeOf(content);
      this.#pump();
      return Promise.resolve(content);
    }
    return new Promise((resolve) => (this.#wanted = { index, resolve }));
  }

  /** Stops reading ahead (reads in flight finish and are dropped). */
  close(): void {
    this.#closed = true;
    this.#done.clear();
  }

  #pump(): void {
    while (!this.#closed && this.#inFlight < READ_AHEAD && this.#next < this.#paths.length && this.#held < HOLD_BYTES) {
      const index = this.#next++;
      this.#inFlight++;
      void readSmallFile(this.#paths[index]!, this.#mayFollow).then((content) => {
        this.#inFlight--;
        const wanted = this.#wanted;
        if (wanted?.index === index) {
          this.#wanted = undefined;
          wanted.resolve(content);
        } else if (!this.#closed) {
          this.#done.set(index, content);
          this.#held += sizeOf(content);
        }
        this.#pump();
      });
    }
  }
}

function sizeOf(content: Searchable): number {
  return Buffer.isBuffer(content) ? content.length : 0;
}

/** With `mayFollow`, a symlinked file is opened only once it says yes (O_NOFOLLOW first: ELOOP means a link). */
function readSmallFile(path: string, mayFollow?: (path: string) => Promise<boolean>): Promise<Searchable> {
  return new Promise((resolve) => {
    open(path, mayFollow ? OPEN_FLAGS | NOFOLLOW : OPEN_FLAGS, (openError, fd) => {
      if (openError) {
        if (mayFollow && openError.code === "ELOOP")
          void mayFollow(path)
            .then((yes) => (yes ? readSmallFile(path) : null))
            .then(resolve, () => resolve(null));
        else resolve(null);
        return;
      }
      const done = (value: Searchable) => close(fd, () => resolve(value));
      fstat(fd, (statError, info) => {
        if (statError || !info.isFile()) return done(null);
        if (info.size > WHOLE_FILE_BYTES) return done({ stream: path });
        const buffer = Buffer.allocUnsafe(info.size);
        readAll(fd, buffer, 0, (readError, length) => {
          if (readError) return done(null);
          const bytes = buffer.subarray(0, length);
          done(isBinary(bytes) ? null : bytes);
        });
      });
    });
  });
}

/** Reads until the buffer is full or the file ends (a file may shrink while we read it). */
function readAll(fd: number, buffer: Buffer, offset: number, callback: (error: Error | null, length: number) => void): void {
  if (offset >= buffer.length) return callback(null, offset);
  read(fd, buffer, offset, buffer.length - offset, offset, (error, bytesRead) => {
    if (error) return callback(error, offset);
    if (bytesRead === 0) return callback(null, offset);
    readAll(fd, buffer, offset + bytesRead, callback);
  });
}

function isBinary(head: Buffer): boolean {
  return head.subarray(0, SNIFF_BYTES).includes(0);
}

export interface Chunk {
  /** Whole lines, UTF-8 (each but possibly the file's last ending in LF). */
  bytes: Buffer;
  /** Lines in `bytes`. */
  lines: number;
  /** Lines of this chunk that were longer than MAX_LINE_BYTES and cut there. */
  cutLines: number;
}

/**
 * A large file as chunks of whole lines, in order; nothing for a binary or unreadable file.
 * Chunks split only after LF bytes, so no UTF-8 character is ever cut in two.
 */
export async function* streamChunks(path: string): AsyncGenerator<Chunk> {
  const handle = await openRegularForRead(path).catch(() => undefined);
  if (!handle) return;
  try {
    // `parts` holds whole lines, then the start of the unfinished line (its last `lineBytes` bytes).
    let parts: Buffer[] = [];
    let held = 0;
    let lineBytes = 0;
    let cutLines = 0;
    let skipping = false; // inside the dropped rest of an over-long line
    const take = (): Chunk => {
      const chunk = chunkOf(Buffer.concat(parts, held), cutLines);
      parts = [];
      held = 0;
      cutLines = 0;
      return chunk;
    };
    for (let first = true; ; first = false) {
      // A fresh buffer per read: the pieces kept in `parts` must not be overwritten.
      const block = Buffer.allocUnsafe(CHUNK_BYTES);
      const { bytesRead } = await handle.read(block, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      let bytes = block.subarray(0, bytesRead);
      if (first && isBinary(bytes)) return;
      if (skipping) {
        const end = bytes.indexOf(10);
        if (end === -1) continue;
        skipping = false;
        bytes = bytes.subarray(end + 1);
      }
      const newline = bytes.indexOf(10);
      if (lineBytes + (newline === -1 ? bytes.length : newline) > MAX_LINE_BYTES) {
        // The unfinished line outgrows the limit: keep its head (whole characters), drop the rest.
        const joined = Buffer.concat([...parts, bytes.subarray(0, MAX_LINE_BYTES - lineBytes + 1)]);
        const lineStart = held - lineBytes;
        const head = joined.subarray(0, lineStart + utf8Boundary(joined.subarray(lineStart), MAX_LINE_BYTES));
        parts = [head, NEWLINE];
        held = head.length + 1;
        lineBytes = 0;
        cutLines++;
        if (newline === -1) {
          skipping = true;
          yield take();
          continue;
        }
        bytes = bytes.subarray(newline + 1);
      }
      parts.push(bytes);
      held += bytes.length;
      const last = bytes.lastIndexOf(10);
      lineBytes = last === -1 ? lineBytes + bytes.length : bytes.length - last - 1;
      if (held - lineBytes < CHUNK_BYTES) continue;
      // Enough whole lines: hand them out, keep the unfinished line.
      const joined = Buffer.concat(parts, held);
      const whole = held - lineBytes;
      parts = [joined.subarray(0, whole)];
      held = whole;
      const chunk = take();
      if (lineBytes > 0) (parts = [joined.subarray(whole)]), (held = lineBytes);
      yield chunk;
    }
    if (held > 0) yield take();
  } finally {
    await handle.close();
  }
}

const NEWLINE = Buffer.from("\n");

function chunkOf(bytes: Buffer, cutLines: number): Chunk {
  let lines = 0;
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) lines++;
  if (bytes.length > 0 && bytes[bytes.length - 1] !== 10) lines++;
  return { bytes, lines, cutLines };
}

/** Largest length <= `end` that does not split a multi-byte UTF-8 character (`buffer` extends past `end`). */
function utf8Boundary(buffer: Buffer, end: number): number {
  let at = end;
  while (at > 0 && (buffer[at]! & 0xc0) === 0x80) at--;
  return at;
}
