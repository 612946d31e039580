/**
 * What grep's main thread and its regex worker exchange. The worker stamps its position into
 * shared memory before every line (never blocked by the regex it runs), so the main thread can
 * tell a slow search from a pattern stuck on one line, and say which line.
 */
import { FIRST_USER_SLOT } from "../../lib/worker/index.js";

/** A pattern that runs this long on one line without finishing is stopped. */
export const LINE_DEADLINE_MS = 2000;

/** Progress slots of the worker: the text (index in the job) and the 0-based line in it. */
export const TEXT_SLOT = FIRST_USER_SLOT;
export const LINE_SLOT = FIRST_USER_SLOT + 1;
export const PROGRESS_SLOTS = FIRST_USER_SLOT + 2;

/** One batch: UTF-8 texts, each a whole file or a chunk of whole lines of one, in search order. */
export interface RegexJob {
  /** The regular expression (compiled once per worker and pattern). */
  source: string;
  flags: string;
  texts: Uint8Array[];
}

export type RegexJobResult =
  /** Per text, the 0-based indices of its matching lines, ascending. */
  | { ok: true; matches: number[][] }
  /** The regex threw (e.g. its backtracking stack overflowed) on that line. */
  | { ok: false; error: string; text: number; line: number };

/**
 * Lines of a text the way grep sees them: split on LF, a CR before the LF dropped, no empty
 * line after a final LF.
 */
export function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.endsWith("\r")) lines[i] = line.slice(0, -1);
  }
  return lines;
}
