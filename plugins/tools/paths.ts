/** Small helpers every file tool shares: path resolution and abort checks. */
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";

/** Resolves a tool path against the session's cwd; `~` and `~/...` expand to the home directory. */
export function resolveToolPath(cwd: string, path: string): string {
  const trimmed = path.trim();
  if (trimmed === "~") return homedir();
  if (trimmed.startsWith("~/")) return join(homedir(), trimmed.slice(2));
  return isAbsolute(trimmed) ? resolve(trimmed) : resolve(cwd, trimmed);
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
