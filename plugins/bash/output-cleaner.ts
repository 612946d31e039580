/**
 * Turns one channel of a command's raw bytes into the text Atomic shows, streams and stores:
 * UTF-8 decoded across chunk boundaries (invalid sequences become U+FFFD), ANSI escapes
 * stripped (a sequence cut at the end of a chunk waits for its rest), and control characters
 * other than tab and newline removed (NUL, carriage returns, bells, stray ESC, C1 controls), so
 * what reaches stdout, the session and the model is always clean, valid UTF-8. NUL bytes are
 * counted as they go: text never holds one, so they mean binary output, which the result says
 * (a command that wrote only NULs would otherwise look like one that wrote nothing).
 */
import { StringDecoder } from "node:string_decoder";
import stripAnsi from "strip-ansi";

/** C0 controls but tab and LF, DEL, and the C1 range. */
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Removes what no reader of command output wants: control characters (ANSI must be stripped first). */
export function removeControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, "");
}

export class OutputCleaner {
  readonly #decoder = new StringDecoder("utf8");
  /** An escape sequence cut off at the end of the previous chunk. */
  #pendingEscape = "";
  #nulBytes = 0;

  /** NUL bytes removed so far. */
  get nulBytes(): number {
    return this.#nulBytes;
  }

  /** The clean text of one chunk (possibly empty: everything may wait for the next one). */
  push(bytes: Buffer): string {
    this.#nulBytes += countNul(bytes);
    const text = this.#pendingEscape + this.#decoder.write(bytes);
    const [complete, pending] = splitTrailingEscape(text);
    this.#pendingEscape = pending;
    return clean(complete);
  }

  /** What was held back, once the channel has closed. */
  end(): string {
    const text = this.#pendingEscape + this.#decoder.end();
    this.#pendingEscape = "";
    return clean(text);
  }
}

function countNul(bytes: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(0); at !== -1; at = bytes.indexOf(0, at + 1)) count++;
  return count;
}

/** What the output says about the NUL bytes taken out of it (nothing when there were none). */
export function withNulNote(output: string, nulBytes: number): string {
  if (nulBytes === 0) return output;
  const note = `[${nulBytes} NUL byte${nulBytes === 1 ? " was" : "s were"} removed from the output: it looks like binary data. Redirect it to a file to keep it.]`;
  return output === "" ? note : `${output.endsWith("\n") ? output : `${output}\n`}\n${note}`;
}

function clean(text: string): string {
  return text === "" ? "" : removeControlCharacters(stripAnsi(text));
}

/**
 * Holds back an escape sequence cut off at the end of a chunk (e.g. `\x1b[3`), so it is stripped
 * once the rest arrives instead of leaking into the output as garbage.
 */
function splitTrailingEscape(text: string): [string, string] {
  const start = text.lastIndexOf("\x1b");
  if (start === -1 || text.length - start > 64) return [text, ""];
  const rest = text.slice(start);
  return stripAnsi(rest) === rest ? [text.slice(0, start), rest] : [text, ""];
}
