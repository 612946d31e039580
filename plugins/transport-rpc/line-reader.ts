/**
 * Strict JSONL framing on bytes: LF is the only delimiter, one trailing CR is stripped, and a
 * line is decoded as UTF-8 only once it is complete (so multi-byte characters split across
 * chunks survive and U+2028/U+2029 never end a record). No size limit; a long line is kept as
 * a list of chunks and joined once, so cost stays linear in its size.
 */
export class LineReader {
  #pending: Buffer[] = [];
  readonly #onLine: (line: string) => void;

  constructor(onLine: (line: string) => void) {
    this.#onLine = onLine;
  }

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      if (newline < 0) break;
      const piece = chunk.subarray(start, newline);
      this.#emit(this.#pending.length === 0 ? piece : Buffer.concat([...this.#pending, piece]));
      this.#pending = [];
      start = newline + 1;
    }
    if (start < chunk.length) this.#pending.push(chunk.subarray(start));
  }

  /** At end of input, a final unterminated line is still a record. */
  end(): void {
    if (this.#pending.length === 0) return;
    const rest = Buffer.concat(this.#pending);
    this.#pending = [];
    this.#emit(rest);
  }

  #emit(bytes: Buffer): void {
    const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
    this.#onLine(bytes.toString("utf8", 0, end));
  }
}
