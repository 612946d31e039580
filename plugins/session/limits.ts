/**
 * Caps on user strings the session stores, so every session file stays one Atomic can read back
 * (a 100 MiB name once made a 600 MB file that switch_session refused). Limits in characters
 * (UTF-16 code units, as JavaScript counts them).
 */
import { ErrorCode, KernelError } from "../../kernel/index.js";

/** A display name: a title, not a document. */
export const MAX_SESSION_NAME_CHARS = 256;
/** A file path (Linux PATH_MAX). */
export const MAX_PATH_CHARS = 4096;

/**
 * What breaks a one-line listing (a session picker, a list of agents, a status bar): C0 controls
 * (tab and newline included), DEL, C1 controls, and Unicode's line and paragraph separators.
 */
const LINE_BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const LINE_BREAKING_RUNS = new RegExp(`${LINE_BREAKING.source}+`, "g");

const CHARACTER_NAMES: Record<string, string> = {
  "\n": "a newline",
  "\r": "a carriage return",
  "\t": "a tab",
  "\u2028": "a line separator (U+2028)",
  "\u2029": "a paragraph separator (U+2029)",
};

function describeCharacter(char: string): string {
  return CHARACTER_NAMES[char] ?? `control character U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * The trimmed name, or a coded error saying what is wrong with it; `field` names where it came
 * from (`name` of set_session_name, `--name`). The index is in the name as given, from 0.
 */
export function checkSessionName(name: string, field = "name"): string {
  const trimmed = name.trim();
  if (trimmed === "") throw new KernelError(ErrorCode.INVALID_INPUT, "Session name cannot be empty");
  if (trimmed.length > MAX_SESSION_NAME_CHARS) {
    throw new KernelError(ErrorCode.INVALID_INPUT, `Session name is too long: ${trimmed.length} characters (the limit is ${MAX_SESSION_NAME_CHARS})`);
  }
  const at = trimmed.search(LINE_BREAKING);
  if (at >= 0) {
    const index = name.length - name.trimStart().length + at;
    throw new KernelError(ErrorCode.INVALID_INPUT, `Invalid ${field}: expected one line of text, found ${describeCharacter(trimmed[at]!)} at index ${index}`);
  }
  return trimmed;
}

/**
 * A stored name as one line, or undefined when blank: each run of control characters shows as
 * one space. Files written by pi, by an older Atomic or by hand may hold any name, and still load.
 */
export function oneLineName(name: string): string | undefined {
  return name.replace(LINE_BREAKING_RUNS, " ").trim() || undefined;
}

/**
 * `path` when it can name a file: not blank (resolved, "" is the working folder itself, which
 * was then reported as no session file) and short enough; `field` names it in the error.
 */
export function checkPath(field: string, path: string): string {
  if (path.trim() === "") throw new KernelError(ErrorCode.INVALID_INPUT, `Invalid ${field}: expected a path, got ${JSON.stringify(path)}`);
  if (path.length > MAX_PATH_CHARS) {
    throw new KernelError(ErrorCode.INVALID_INPUT, `Invalid ${field}: expected a path of at most ${MAX_PATH_CHARS} characters (got ${path.length})`);
  }
  return path;
}
