/**
 * Small helpers every file tool shares: path resolution, fs error messages and abort checks.
 *
 * Models write paths the way they saw them in a chat: with a leading `@` (a mention), `~`,
 * stray spaces, typographic apostrophes, Unicode spaces from macOS screenshot names, or a
 * different Unicode normal form. `resolveToolPath` tries the path as given first and then
 * those variants, and picks the first that exists on disk.
 */
import { existsSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { expandHome } from "../../kernel/index.js";

/** NBSP, the en/em/thin spaces, narrow NBSP, medium math space, ideographic space. */
const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

/** Spellings of `path` worth trying, most literal first. */
export function pathCandidates(path: string): string[] {
  const list: string[] = [];
  const add = (candidate: string) => {
    if (candidate !== "" && !list.includes(candidate)) list.push(candidate);
  };
  const trimmed = path.trim();
  add(trimmed);
  add(trimmed.replace(UNICODE_SPACES, " "));
  for (const candidate of [...list]) if (candidate.startsWith("@")) add(candidate.slice(1));
  for (const candidate of [...list]) {
    add(candidate.normalize("NFC"));
    add(candidate.normalize("NFD"));
    add(candidate.replace(/'/g, "\u2019"));
    // macOS screenshot names put a narrow no-break space before AM/PM.
    add(candidate.replace(/ (AM|PM)\b/g, "\u202F$1"));
  }
  return list;
}

function absolute(cwd: string, path: string): string {
  // `~`, `~/x` and `~\x` (a Windows user's spelling): the kernel's one rule.
  const expanded = expandHome(path);
  return isAbsolute(expanded) ? resolve(expanded) : resolve(cwd, expanded);
}

/**
 * Resolves a tool path against the session's cwd (`~` and `~/...` expand to the home directory).
 * The first spelling that exists wins. For a file about to be created: the first spelling whose
 * parent directory exists, preferring those without a leading `@` (a mention, not a name),
 * else the path without its `@`.
 */
export function resolveToolPath(cwd: string, path: string): string {
  const candidates = pathCandidates(path);
  if (candidates.length === 0) throw new Error("Path must not be empty");
  const resolved = candidates.map((candidate) => absolute(cwd, candidate));
  const existing = resolved.find((candidate) => existsSync(candidate));
  if (existing !== undefined) return existing;
  if (resolved.length === 1) return resolved[0]!;
  const order = [...resolved.keys()].sort((a, b) => Number(candidates[a]!.startsWith("@")) - Number(candidates[b]!.startsWith("@")));
  const withParent = order.find((index) => existsSync(dirname(resolved[index]!)));
  return resolved[withParent ?? order[0]!]!;
}

/** `path` for tools whose path is optional: absent or blank means the working directory. */
export function optionalPath(path: string | undefined): string {
  return path === undefined || path.trim() === "" ? "." : path;
}

export const ABORTED_MESSAGE = "Operation aborted";

/** Throws the tools' uniform abort error; call it between steps of long work. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new Error(ABORTED_MESSAGE);
}

/** Node's fs errors as a code, so callers can turn ENOENT into a clear message. */
export function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * A readable error for a failed fs call on `shownPath` (the path as the model wrote it), instead
 * of Node's `EACCES: permission denied, open '/abs/path'`. `notFound` is the ENOENT message.
 */
export function fsError(error: unknown, shownPath: string, notFound = `File not found: ${shownPath}`): Error {
  switch (errnoCode(error)) {
    case "ENOENT":
    case "ENOTDIR":
      return new Error(notFound);
    case "EACCES":
    case "EPERM":
      return new Error(`Permission denied: ${shownPath}`);
    case "EISDIR":
      return new Error(`${shownPath} is a directory, not a file.`);
    case "ELOOP":
      return new Error(`Too many levels of symbolic links (a symlink loop?): ${shownPath}`);
    case "ENAMETOOLONG":
      return new Error(`File name too long: ${shownPath}`);
    default:
      return error instanceof Error ? error : new Error(String(error));
  }
}
