/**
 * The lifecycle of full-output files (`atomic-bash-<hex>.log` in the temp folder). A file this
 * process wrote is removed at exit unless a persisted session entry refers to it (a user bash
 * result or a bash tool result stored in a session file); those are kept for
 * `bash.logRetentionHours` and swept by a later start once older than that.
 */
import { readdir, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { AgentMessage } from "../../lib/llm/index.js";

const FILE_NAME = /^atomic-bash-[0-9a-f]{16}\.log$/;
export const DEFAULT_LOG_RETENTION_HOURS = 24;

export class FullOutputFiles {
  /** Written by this process and not (yet) referred to by a persisted session. */
  readonly #unkept = new Set<string>();

  /** A file this process wrote: removed at exit unless kept. */
  track(path: string): void {
    this.#unkept.add(path);
  }

  /** Keeps every tracked file a stored message refers to, when that message went into a session file. */
  noteStored(message: AgentMessage, persisted: () => boolean): void {
    if (this.#unkept.size === 0 || !persisted()) return;
    for (const path of referencedPaths(message, this.#unkept)) this.#unkept.delete(path);
  }

  /** Files that would be removed at exit now (tests, diagnostics). */
  unkept(): string[] {
    return [...this.#unkept];
  }

  /** Removes the files nothing persisted refers to; call at exit. */
  async removeUnkept(): Promise<void> {
    const paths = [...this.#unkept];
    this.#unkept.clear();
    await Promise.all(paths.map((path) => unlink(path).catch(() => undefined)));
  }
}

/** Tracked paths a message mentions: a user bash result's file, or the path in a tool result's text. */
function referencedPaths(message: AgentMessage, tracked: ReadonlySet<string>): string[] {
  if (message.role === "bashExecution") return message.fullOutputPath && tracked.has(message.fullOutputPath) ? [message.fullOutputPath] : [];
  if (message.role !== "toolResult") return [];
  const details = message.details as { fullOutputPath?: unknown } | undefined;
  // A failed command's result has no details, only the notice in its text.
  const text = message.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
  return [...tracked].filter((path) => details?.fullOutputPath === path || text.includes(path));
}

/** Whether an agent sweeps the temp folder: no agent of its process did within the retention period. Marks it done. */
export function sweepDue(sweeps: { lastMs: number }, retentionHours: number, now = Date.now()): boolean {
  if (now - sweeps.lastMs < retentionHours * 3_600_000) return false;
  sweeps.lastMs = now;
  return true;
}

/**
 * Removes full-output files in `dir` last modified more than `retentionHours` ago (left by
 * earlier processes); returns how many. Errors (a file another user owns, one already gone)
 * are skipped.
 */
export async function sweepOldOutputFiles(dir: string, retentionHours: number, now = Date.now()): Promise<number> {
  const cutoff = now - retentionHours * 3_600_000;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!FILE_NAME.test(name)) continue;
    const path = join(dir, name);
    try {
      if ((await stat(path)).mtimeMs >= cutoff) continue;
      await unlink(path);
      removed++;
    } catch {
      // Gone already, or not ours to remove.
    }
  }
  return removed;
}
