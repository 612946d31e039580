/**
 * Turning grep's matches into output lines, file by file and chunk by chunk: `path:line: text`
 * for matches, `path-line- text` for context, `--` between distant groups. Context before a
 * match may come from the previous chunk of the same file, context after it from the next one.
 * Output is bounded by the match limit, 500 characters per line and a byte budget.
 */
import { MAX_LINE_CHARS } from "./grep-limits.js";
import { splitLines } from "./regex-protocol.js";

export { MAX_LINE_CHARS };

export class GrepOutput {
  readonly #limit: number;
  readonly #context: number;
  readonly #out: BoundedLines;
  matches = 0;
  cutLines = false;
  // Per file:
  #file: string | undefined;
  #printedUpTo = -1; // last line index printed
  #afterLeft = 0; // context lines still to print after the last match
  #recent: { index: number; text: string }[] = []; // the last `context` lines seen

  constructor(options: { limit: number; context: number; maxBytes: number }) {
    this.#limit = options.limit;
    this.#context = options.context;
    this.#out = new BoundedLines(options.maxBytes);
  }

  get limitReached(): boolean {
    return this.matches >= this.#limit;
  }

  get full(): boolean {
    return this.#out.full;
  }

  /** False once nothing more can be printed: output full, or the limit hit and its trailing context done. */
  wants(file: string): boolean {
    if (this.#out.full) return false;
    if (!this.limitReached) return true;
    return file === this.#file && this.#afterLeft > 0;
  }

  /**
   * One chunk of `file` (whole lines starting at 0-based `firstLine`, UTF-8) with its matching
   * line indices (relative to the chunk, ascending). Decoded only when something is printed.
   * `lineCount` is given when more of the file may follow (its last lines are then kept as
   * context for the next chunk).
   */
  add(file: string, firstLine: number, bytes: Buffer, matches: readonly number[], lineCount?: number): void {
    if (file !== this.#file) {
      this.#file = file;
      this.#printedUpTo = -1;
      this.#afterLeft = 0;
      this.#recent = [];
    }
    if (matches.length === 0 && this.#afterLeft === 0) {
      if (this.#context > 0 && lineCount !== undefined) {
        const tail = lastLines(bytes, this.#context);
        this.#remember(firstLine + lineCount - tail.length, tail);
      }
      return;
    }
    const lines = splitLines(bytes.toString("utf8"));
    let next = 0; // index into `matches`
    for (let i = 0; i < lines.length && this.wants(file); i++) {
      const index = firstLine + i;
      const isMatch = next < matches.length && matches[next] === i;
      if (isMatch) next++;
      if (isMatch && this.limitReached) return; // a later match ends the last match's context
      if (isMatch) this.#printMatch(index, lines[i]!);
      else if (this.#afterLeft > 0) {
        this.#print(`${file}-${index + 1}- `, lines[i]!);
        this.#printedUpTo = index;
        this.#afterLeft--;
      }
      if (next >= matches.length && this.#afterLeft === 0) {
        // Nothing more to print in this chunk: only its last lines matter (as context before the next).
        const from = Math.max(i, lines.length - this.#context);
        if (this.#context > 0) this.#remember(firstLine + from, lines.slice(from));
        return;
      }
      if (this.#context > 0) this.#remember(index, [lines[i]!]);
    }
  }

  text(): string {
    return this.#out.text();
  }

  #printMatch(index: number, line: string): void {
    this.matches++;
    const from = Math.max(index - this.#context, this.#printedUpTo + 1);
    if (this.#context > 0 && this.#printedUpTo >= 0 && from > this.#printedUpTo + 1) this.#out.push("--");
    for (const before of this.#recent) {
      if (before.index >= from && before.index < index) this.#print(`${this.#file}-${before.index + 1}- `, before.text);
    }
    this.#print(`${this.#file}:${index + 1}: `, line);
    this.#printedUpTo = index;
    this.#afterLeft = this.#context;
  }

  #print(prefix: string, line: string): void {
    const cut = line.length > MAX_LINE_CHARS;
    this.cutLines ||= cut;
    this.#out.push(prefix + (cut ? `${line.slice(0, MAX_LINE_CHARS)}... [truncated]` : line));
  }

  /** Adds `lines` (the first at line `firstIndex`) to the last `context` lines seen. */
  #remember(firstIndex: number, lines: string[]): void {
    lines.forEach((text, i) => this.#recent.push({ index: firstIndex + i, text }));
    if (this.#recent.length > this.#context) this.#recent.splice(0, this.#recent.length - this.#context);
  }
}

/** The last `count` lines of `bytes` (as splitLines would give them), decoding only those. */
function lastLines(bytes: Buffer, count: number): string[] {
  if (bytes.length === 0) return [];
  let lineEnd = bytes.length - (bytes[bytes.length - 1] === 10 ? 1 : 0);
  let lineStart = lineEnd;
  for (let n = 0; n < count; n++) {
    const newline = lineEnd === 0 ? -1 : bytes.lastIndexOf(10, lineEnd - 1);
    lineStart = newline + 1;
    if (newline === -1) break;
    lineEnd = newline;
  }
  return splitLines(bytes.subarray(lineStart).toString("utf8"));
}

/** Collects whole output lines until the byte budget would be exceeded. */
class BoundedLines {
  readonly #lines: string[] = [];
  #bytes = 0;
  full = false;
  constructor(readonly maxBytes: number) {}

  push(line: string): void {
    if (this.full) return;
    const bytes = Buffer.byteLength(line, "utf8") + (this.#lines.length > 0 ? 1 : 0);
    if (this.#bytes + bytes > this.maxBytes) {
      this.full = true;
      return;
    }
    this.#lines.push(line);
    this.#bytes += bytes;
  }

  text(): string {
    return this.#lines.join("\n");
  }
}
