/**
 * Reads a session file's listing facts in 1 MiB blocks, so memory holds one block and the lines
 * that must be parsed, never the file: a line that spans blocks is kept whole only when its kind
 * needs parsing (the header, the first user message, session_info), otherwise only its place is
 * noted. The last activity is found by reading message lines back from the end. Also tells
 * whether a file is a session at all from its first line (`--continue` needs no more).
 */
import type { Stats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { openRegularForRead } from "../../lib/regular-file/index.js";
import type { SessionInfo } from "../session/api.js";
import { MAX_LINE_BYTES } from "./reader.js";
import { activityTime, InfoScan, isBlank, KIND_PREFIX_BYTES, kindOf, parse, type LineKind } from "./session-info.js";

const BLOCK_BYTES = 1024 * 1024;
/** A header is a few hundred bytes (two paths at most 4 KiB each): a longer first line is no session. */
const HEADER_MAX_BYTES = 1024 * 1024;
/** Blocks for reading a header: one holds any real header. */
const HEADER_BLOCK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

/**
 * The file's facts, or undefined when its first line is not a session header. `stats` is the
 * caller's stat of the file: the scan reads its `size` bytes (what the cache keys on), no more.
 */
export async function readSessionInfo(path: string, stats: Stats, options: { blockBytes?: number } = {}): Promise<SessionInfo | undefined> {
  const handle = await openRegularForRead(path, stats);
  try {
    const scan = new InfoScan();
    // A small file gets a block its size: 1,000 sessions of 30 KB must not cost 1,000 blocks of
    // 1 MiB to allocate and collect.
    const blockBytes = Math.max(1, Math.min(options.blockBytes ?? BLOCK_BYTES, stats.size));
    const lastBlock: LastBlock = { bytes: Buffer.alloc(0), at: 0 };
    if (!(await scanLines(handle, scan, blockBytes, stats.size, lastBlock))) return undefined;
    let last: Date | undefined;
    for (let i = scan.messages.length - 2; i >= 0 && !last; i -= 2) {
      const start = scan.messages[i]!;
      const end = scan.messages[i + 1]!;
      // The last lines are usually still in the last block read (all of a small file is).
      const inBlock = start >= lastBlock.at && end <= lastBlock.at + lastBlock.bytes.length;
      const bytes = inBlock ? lastBlock.bytes.subarray(start - lastBlock.at, end - lastBlock.at) : await readRange(handle, start, end);
      last = activityTime(parse(bytes, 0, bytes.length));
    }
    return scan.info(path, stats.mtime, last);
  } finally {
    await handle.close();
  }
}

/** Whether the file's first line is a session header (nothing after it is read). */
export async function isSessionFile(path: string): Promise<boolean> {
  let handle: FileHandle | undefined;
  try {
    handle = await openRegularForRead(path);
    const scan = new InfoScan();
    return (await scanLines(handle, scan, HEADER_BLOCK_BYTES, "header")) && scan.header !== undefined;
  } catch {
    return false;
  } finally {
    await handle?.close();
  }
}

/** The last block read and where it starts in the file. */
interface LastBlock {
  bytes: Buffer;
  at: number;
}

/**
 * Feeds the lines of the file's first `upTo` bytes to `scan` (or only the first line, with
 * "header"); false when the file is no session. `lastBlock` is left holding the last block read.
 */
async function scanLines(handle: FileHandle, scan: InfoScan, blockBytes: number, upTo: number | "header", lastBlock?: LastBlock): Promise<boolean> {
  const block = Buffer.allocUnsafe(blockBytes);
  const pending = new PendingLine();
  const headerOnly = upTo === "header";
  for (let offset = 0; headerOnly || offset < upTo; ) {
    const { bytesRead } = await handle.read(block, 0, headerOnly ? blockBytes : Math.min(blockBytes, upTo - offset), offset);
    if (bytesRead === 0) break;
    const chunk = block.subarray(0, bytesRead);
    if (lastBlock) (lastBlock.bytes = chunk), (lastBlock.at = offset);
    for (let start = 0; start < bytesRead; ) {
      const newline = chunk.indexOf(NEWLINE, start);
      if (newline < 0) {
        // Copied (the block is reused), and only as much as the scan needs.
        pending.add(chunk.subarray(start), offset + start, scan);
        // A first line this long is no header; a longer line than any entry may take cannot be loaded.
        if (pending.whole && pending.bytes > (scan.header ? MAX_LINE_BYTES : HEADER_MAX_BYTES)) return false;
        break;
      }
      if (!pending.empty) {
        pending.add(chunk.subarray(start, newline), offset + start, scan);
        const text = pending.text();
        if (!feed(scan, pending, text, false)) return false;
        pending.clear();
      } else if (!isBlank(chunk, start, newline)) {
        if (!scan.line(kindOf(chunk, start, newline), chunk, start, newline, offset + start)) return false;
      }
      start = newline + 1;
      if (headerOnly && scan.header) return true;
    }
    offset += bytesRead;
  }
  if (pending.empty) return true;
  // A torn last line (a crash mid-write) counts only if it is whole JSON: it is needed whole.
  const text = pending.whole ? pending.text() : await readRange(handle, pending.start, pending.start + pending.bytes);
  return feed(scan, pending, text, true);
}

/** The finished spanning line to the scan: `text` is all of it, or undefined when it was not kept. */
function feed(scan: InfoScan, line: PendingLine, text: Buffer | undefined, torn: boolean): boolean {
  if (text && isBlank(text, 0, text.length)) return true;
  return scan.line(line.kind!, text, 0, line.bytes, line.start, torn);
}

/** A line that spans blocks: its start, its length, and its bytes while the scan may need them. */
class PendingLine {
  #pieces: Buffer[] = [];
  #kept = 0;
  start = 0;
  bytes = 0;
  kind: LineKind | undefined;
  /** Whether every byte is kept (its kind needs parsing, or is not known yet). */
  whole = true;

  get empty(): boolean {
    return this.bytes === 0;
  }

  add(piece: Buffer, at: number, scan: InfoScan): void {
    if (this.bytes === 0) this.start = at;
    this.bytes += piece.length;
    if (!this.whole) return;
    if (this.kind === undefined) {
      // Classified before anything is copied: a line nobody parses costs no copy at all.
      const head = this.#kept === 0 ? piece : Buffer.concat([...this.#pieces, piece.subarray(0, KIND_PREFIX_BYTES)]);
      if (head.length >= KIND_PREFIX_BYTES) {
        this.kind = kindOf(head, 0, head.length);
        if (!scan.wants(this.kind)) {
          this.whole = false;
          this.#pieces = [];
          this.#kept = 0;
          return;
        }
      }
    }
    this.#pieces.push(Buffer.from(piece)); // copied: the block is reused
    this.#kept += piece.length;
  }

  /** The whole line, or undefined when it was not kept. */
  text(): Buffer | undefined {
    if (!this.whole) return undefined;
    const text = Buffer.concat(this.#pieces);
    this.kind ??= kindOf(text, 0, text.length);
    return text;
  }

  clear(): void {
    this.#pieces = [];
    this.#kept = 0;
    this.bytes = 0;
    this.kind = undefined;
    this.whole = true;
  }
}

async function readRange(handle: FileHandle, start: number, end: number): Promise<Buffer> {
  const bytes = Buffer.allocUnsafe(end - start);
  let filled = 0;
  while (filled < bytes.length) {
    const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, start + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return bytes.subarray(0, filled);
}
