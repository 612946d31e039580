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

/** The trimmed name, or a coded error saying what is wrong with it. */
export function checkSessionName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === "") throw new KernelError(ErrorCode.INVALID_INPUT, "Session name cannot be empty");
  if (trimmed.length > MAX_SESSION_NAME_CHARS) {
    throw new KernelError(ErrorCode.INVALID_INPUT, `Session name is too long: ${trimmed.length} characters (the limit is ${MAX_SESSION_NAME_CHARS})`);
  }
  return trimmed;
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
