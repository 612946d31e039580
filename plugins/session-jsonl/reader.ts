/**
 * Reads a session file as a stream of lines, in one linear pass: memory holds the entries, never
 * the file as one string (V8 caps a string at ~512 MiB, so a large session used to fail with
 * "Invalid string length"). Unparsable lines (typically the torn last line of a crash) and
 * entries of an unusable shape are skipped with one warning; everything else is kept, an entry
 * whose parent was skipped re-linked to its nearest readable ancestor (parent-repair.ts). A first
 * line that is not a session header makes the whole file invalid. A file too large for this
 * process, or with a line over MAX_LINE_BYTES, fails with a message that says so.
 */
import { ErrorCode, KernelError } from "../../kernel/index.js";
import { NotRegularFileError, openRegularForRead } from "../../lib/regular-file/index.js";
import { formatSize } from "../../lib/truncate/index.js";
import type { SessionEntry, SessionHeader } from "../session/api.js";
import { hasValidShape } from "./entry-shape.js";
import { checkRoom } from "./heap-room.js";
import { ParentRepair } from "./parent-repair.js";

/** The longest line (one entry) Atomic writes or reads: far above any real entry, well below V8's string limit. */
export const MAX_LINE_BYTES = 256 * 1024 * 1024;
const BLOCK_BYTES = 1024 * 1024;

export interface ReadResult {
  header: SessionHeader;
  entries: SessionEntry[];
  /** False when the file ends without "\n" (a torn line): the next append starts a new line. */
  endsWithNewline: boolean;
}

export interface ReadOptions {
  /** The longest line accepted; MAX_LINE_BYTES unless a test needs a small one. */
  maxLineBytes?: number;
}

export async function readSessionFile(path: string, warn: (message: string) => void, options: ReadOptions = {}): Promise<ReadResult> {
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  let handle;
  try {
    // Only regular files: a FIFO or a device would block the command lane (or never end).
    handle = await openRegularForRead(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENOTDIR: a path through a regular file (a blocked session folder) names no file either.
    if (code === "ENOENT" || code === "ENOTDIR") throw new KernelError(ErrorCode.NOT_FOUND, `File not found: ${path}`);
    if (error instanceof NotRegularFileError) throw invalid(path, `it is a ${error.kind}, not a regular file`);
    throw error;
  }
  try {
    const { size } = await handle.stat();
    checkRoom(path, size, 0);
    const parser = new SessionLines(path, warn);
    const block = Buffer.allocUnsafe(BLOCK_BYTES);
    let pending: Buffer[] = []; // pieces of a line that spans blocks
    let pendingBytes = 0;
    let lastByte = -1;
    for (let read = 0; ; ) {
      const { bytesRead } = await handle.read(block, 0, BLOCK_BYTES, null);
      if (bytesRead === 0) break;
      read += bytesRead;
      const chunk = block.subarray(0, bytesRead);
      lastByte = chunk[bytesRead - 1]!;
      let start = 0;
      const first = chunk.indexOf(10);
      if (first !== -1 && pendingBytes > 0) {
        // The line begun in earlier blocks ends here.
        pending.push(chunk.subarray(0, first));
        parser.line(Buffer.concat(pending).toString("utf8"));
        pending = [];
        pendingBytes = 0;
        start = first + 1;
      }
      const last = chunk.lastIndexOf(10);
      if (last >= start) {
        // Whole lines: one decode per block, then cheap string slicing.
        const text = chunk.toString("utf8", start, last);
        for (let from = 0; ; ) {
          const end = text.indexOf("\n", from);
          parser.line(end === -1 ? text.slice(from) : text.slice(from, end));
          if (end === -1) break;
          from = end + 1;
        }
        start = last + 1;
      }
      if (start < bytesRead) {
        pendingBytes += bytesRead - start;
        if (pendingBytes > maxLineBytes) {
          throw new KernelError(
            ErrorCode.INVALID_INPUT,
            `Cannot load session file ${path}: line ${parser.lineNumber + 1} is over ${formatSize(maxLineBytes)}, the most one entry may take`,
          );
        }
        pending.push(Buffer.from(chunk.subarray(start))); // copied: `block` is reused
      }
      if (read % (16 * BLOCK_BYTES) < bytesRead) checkRoom(path, size, read);
    }
    if (pendingBytes > 0) parser.line(Buffer.concat(pending).toString("utf8"));
    return parser.finish(lastByte === -1 || lastByte === 10);
  } finally {
    await handle.close();
  }
}

/** Parses text already in memory (tests, small files). */
export function parseSessionText(text: string, path: string, warn: (message: string) => void): ReadResult {
  const parser = new SessionLines(path, warn);
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    parser.line(text.slice(start, end));
    start = end + 1;
  }
  return parser.finish(text.length === 0 || text.endsWith("\n"));
}

/** Turns lines into the header and entries, counting what it had to skip. */
class SessionLines {
  readonly #entries: SessionEntry[] = [];
  readonly #seen = new Set<string>();
  #header: SessionHeader | undefined;
  #skipped = 0;
  #lastSkipped = false;
  readonly #repair = new ParentRepair();
  lineNumber = 0;

  constructor(
    readonly path: string,
    readonly warn: (message: string) => void,
  ) {}

  line(raw: string): void {
    this.lineNumber++;
    const line = raw.charCodeAt(raw.length - 1) === 13 ? raw.slice(0, -1) : raw;
    if (line.trim() === "") return;
    const record = parseLine(line);
    if (!this.#header) {
      if (record === undefined) throw invalid(this.path, `line ${this.lineNumber} is not JSON`);
      if (!isHeader(record)) throw invalid(this.path, `line ${this.lineNumber} is not a session header`);
      this.#header = record;
      return;
    }
    if (!isEntry(record) || this.#seen.has(record.id)) {
      this.#skipped++;
      this.#lastSkipped = true;
      this.#repair.skipped(record, this.#entries.at(-1)?.id ?? null, this.#seen);
      return;
    }
    this.#lastSkipped = false;
    if (record.parentId === undefined) record.parentId = null;
    this.#repair.repair(record, this.#seen);
    this.#seen.add(record.id);
    this.#entries.push(record);
  }

  finish(endsWithNewline: boolean): ReadResult {
    if (!this.#header) throw invalid(this.path, this.lineNumber === 0 ? "it is empty" : "it holds only blank lines");
    if (this.#skipped > 0) {
      const what = this.#skipped === 1 && this.#lastSkipped ? "a torn last line" : `${this.#skipped} unreadable line(s)`;
      const { relinked } = this.#repair;
      const repaired = relinked === 0 ? "" : `; re-linked ${relinked} ${relinked === 1 ? "entry" : "entries"} whose parent was on a skipped line to the nearest readable entry`;
      this.warn(`Skipped ${what} in session file ${this.path}${repaired}`);
    }
    return { header: this.#header, entries: this.#entries, endsWithNewline };
  }
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function isHeader(record: unknown): record is SessionHeader {
  return isObject(record) && record.type === "session" && typeof record.id === "string";
}

function isEntry(record: unknown): record is SessionEntry {
  return (
    isObject(record) &&
    typeof record.type === "string" &&
    record.type !== "session" &&
    typeof record.id === "string" &&
    (record.parentId === undefined || record.parentId === null || typeof record.parentId === "string") &&
    hasValidShape(record)
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Why the file is no session is part of the message: "not valid" alone leaves a client guessing. */
function invalid(path: string, reason: string): KernelError {
  return new KernelError(ErrorCode.INVALID_INPUT, `Not a valid session file: ${path} (${reason})`);
}
