/**
 * Collects a command's (already ANSI-stripped) output with bounded memory: only a window just
 * larger than the byte limit is kept, which is always enough to render the tail exactly, while
 * totals are counted over everything. Once the output outgrows the limits, everything so far
 * and everything after is streamed to a temp file (asynchronously; `append` returning false is
 * back-pressure for the producer), and `close()` resolves once the file holds it all.
 */
import { secureRandomHex } from "../../lib/random-ids/index.js";
import { createWriteStream, type WriteStream } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, truncateTail, type TruncationResult } from "../../lib/truncate/index.js";

export interface OutputTailOptions {
  maxLines?: number;
  maxBytes?: number;
  /** Directory for the full-output file; defaults to os.tmpdir(). */
  tempDir?: string;
}

export class OutputTail {
  readonly maxLines: number;
  readonly maxBytes: number;
  readonly #tempDir: string;
  #chunks: string[] = [];
  #chunkChars = 0;
  #totalBytes = 0;
  #newlines = 0;
  #lastChar = "";
  #file: WriteStream | null = null;
  #fullOutputPath: string | null = null;

  constructor(options: OutputTailOptions = {}) {
    this.maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.#tempDir = options.tempDir ?? tmpdir();
  }

  get totalBytes(): number {
    return this.#totalBytes;
  }

  /** Lines by `\n` separators; a final newline adds no line. */
  get totalLines(): number {
    return this.#newlines + (this.#lastChar !== "" && this.#lastChar !== "\n" ? 1 : 0);
  }

  get truncated(): boolean {
    return this.#totalBytes > this.maxBytes || this.totalLines > this.maxLines;
  }

  get fullOutputPath(): string | null {
    return this.#fullOutputPath;
  }

  /** False when the full-output file is congested: pause the producer until `onceDrain`. */
  append(text: string): boolean {
    if (text === "") return true;
    this.#totalBytes += Buffer.byteLength(text, "utf8");
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) this.#newlines++;
    this.#lastChar = text[text.length - 1]!;
    this.#chunks.push(text);
    this.#chunkChars += text.length;

    let accepted = true;
    if (this.#file !== null) {
      accepted = this.#file.write(text);
    } else if (this.truncated) {
      // Nothing has been dropped yet (trimming starts only once the file exists): write it all.
      this.#fullOutputPath = join(this.#tempDir, `atomic-bash-${secureRandomHex(8)}.log`);
      this.#file = createWriteStream(this.#fullOutputPath, { mode: 0o600 });
      this.#file.on("error", () => undefined);
      for (const chunk of this.#chunks) accepted = this.#file.write(chunk);
    }
    if (this.#file !== null) this.#trim();
    return accepted;
  }

  onceDrain(callback: () => void): void {
    if (this.#file) this.#file.once("drain", callback);
    else callback();
  }

  /** The tail as it stands, with totals over the whole output. */
  render(): TruncationResult {
    const window = truncateTail(this.#chunks.join(""), { maxLines: this.maxLines, maxBytes: this.maxBytes });
    return { ...window, totalLines: this.totalLines, totalBytes: this.#totalBytes, truncated: this.truncated };
  }

  /** Closes the full-output file; resolves once everything is on disk. Call when the command has finished. */
  async close(): Promise<void> {
    const file = this.#file;
    this.#file = null;
    if (!file) return;
    await new Promise<void>((resolve) => {
      file.once("error", () => resolve());
      file.end(() => resolve());
    });
  }

  /**
   * Drops whole chunks from the front while more than maxBytes UTF-16 units remain: a code unit
   * is at least one UTF-8 byte, so the window still exceeds the byte limit and truncateTail can
   * never mistake its (possibly cut) first line for a whole one.
   */
  #trim(): void {
    while (this.#chunks.length > 1 && this.#chunkChars - this.#chunks[0]!.length > this.maxBytes) {
      this.#chunkChars -= this.#chunks.shift()!.length;
    }
  }
}
