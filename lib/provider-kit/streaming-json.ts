/**
 * Tool-call arguments arrive as JSON fragments, and every delta's snapshot carries the arguments
 * parsed so far. Re-parsing the whole prefix with a lenient parser on each delta is quadratic
 * and slow (a 100 KB `write` streamed in 20-character deltas: ~1.1 s of partial-JSON parsing).
 * This tracks, in O(delta), which strings and containers are open, so most prefixes can be
 * closed and handed to the native JSON.parse; the rare prefixes it cannot close (a dangling
 * key, a half-written literal or escape) fall back to the lenient parser.
 */
import { parse as parsePartialJson } from "partial-json";

export class StreamingJson {
  #raw = "";
  /** Closers for the open containers, innermost last. */
  readonly #closers: string[] = [];
  #inString = false;
  #escaped = false;

  get raw(): string {
    return this.#raw;
  }

  push(delta: string): void {
    this.#raw += delta;
    for (let i = 0; i < delta.length; i++) {
      const char = delta[i]!;
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (char === "\\") this.#escaped = true;
        else if (char === '"') this.#inString = false;
      } else if (char === '"') this.#inString = true;
      else if (char === "{") this.#closers.push("}");
      else if (char === "[") this.#closers.push("]");
      else if (char === "}" || char === "]") this.#closers.pop();
    }
  }

  /** The value of the text so far: complete JSON, closed prefix, or the lenient parse. */
  value(): unknown {
    const raw = this.#raw;
    if (raw.trim() === "") return undefined;
    if (!this.#inString || !this.#escaped) {
      const closing = (this.#inString ? '"' : "") + this.#closers.slice().reverse().join("");
      try {
        return JSON.parse(raw + closing);
      } catch {
        // fall through: a dangling key, comma, half literal or \u escape
      }
    }
    try {
      return parsePartialJson(raw);
    } catch {
      return undefined;
    }
  }
}
