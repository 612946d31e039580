/**
 * Strict JSONL framing on bytes: LF is the only delimiter, one trailing CR is stripped, and a
 * line is decoded as UTF-8 only once it is complete (so multi-byte characters split across
 * chunks survive and U+2028/U+2029 never end a record). A long line is kept as a list of chunks
 * and joined once, so cost stays linear in its size. The only limit is the one a line must fit
 * to become a string at all (V8's maximum string length): a longer line is dropped as it
 * arrives (memory stays bounded) and reported, and reading goes on with the next line. A UTF-8
 * byte order mark at the very start of the stream (.NET's writers add one by default) is dropped:
 * it would make the first record invalid JSON, and it is not part of any record.
 */
import { constants } from "node:buffer";

export const MAX_LINE_BYTES = constants.MAX_STRING_LENGTH;

export class LineReader {
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #oversized = false;
  #first = true;
  readonly #onLine: (line: string) => void;
  readonly #onOversized: (bytes: number) => void;
  readonly #maxLineBytes: number;

  constructor(onLine: (line: string) => void, options: { onOversized?: (bytes: number) => void; maxLineBytes?: number } = {}) {
    this.#onLine = onLine;
    this.#onOversized = options.onOversized ?? (() => undefined);
    this.#maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  }

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      if (newline < 0) break;
      this.#take(chunk.subarray(start, newline));
      this.#finishLine();
      start = newline + 1;
    }
    if (start < chunk.length) this.#take(chunk.subarray(start));
  }

  /** At end of input, a final unterminated line is still a record. */
  end(): void {
    if (this.#pending.length > 0 || this.#oversized) this.#finishLine();
  }

  #take(piece: Buffer): void {
    if (piece.length === 0) return;
    this.#pendingBytes += piece.length;
    if (this.#oversized) return;
    if (this.#pendingBytes > this.#maxLineBytes) {
      this.#oversized = true;
      this.#pending = [];
      return;
    }
    this.#pending.push(piece);
  }

  #finishLine(): void {
    const bytes = this.#pendingBytes;
    if (this.#oversized) {
      this.#first = false;
      this.#reset();
      this.#onOversized(bytes);
      return;
    }
    const line = this.#pending.length === 1 ? this.#pending[0]! : Buffer.concat(this.#pending, bytes);
    this.#reset();
    const end = line.length > 0 && line[line.length - 1] === 0x0d ? line.length - 1 : line.length;
    const start = this.#first && line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf ? 3 : 0;
    this.#first = false;
    this.#onLine(line.toString("utf8", start, Math.max(start, end)));
  }

  #reset(): void {
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#oversized = false;
  }
}
