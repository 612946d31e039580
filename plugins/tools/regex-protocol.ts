/**
 * What grep's main thread and its regex worker exchange. The worker reports progress through
 * shared memory (never blocked by the regex it runs), so the main thread can tell a slow search
 * from a pattern stuck on one line.
 */

/** A pattern that runs this long on one line without finishing is stopped. */
export const LINE_DEADLINE_MS = 2000;

/** Slots of the shared Int32Array the worker writes. */
export const PROGRESS = {
  /** Incremented before every line is tested: unchanged for LINE_DEADLINE_MS means stuck. */
  beat: 0,
  /** Index (in the job's texts) of the text being searched. */
  text: 1,
  /** 0-based line being tested, within that text. */
  line: 2,
  /** 1 once the worker's module is loaded: loading time never counts against a line. */
  ready: 3,
} as const;
export const PROGRESS_SLOTS = 4;

export interface RegexWorkerData {
  progress: SharedArrayBuffer;
  source: string;
  flags: string;
}

/** One batch: UTF-8 texts, each a whole file or a chunk of whole lines of one, in search order. */
export interface RegexJob {
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
