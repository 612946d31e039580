/**
 * Before a compaction entry is written: the session file must be writable (so a compaction
 * never half-happens), and a copy of it is kept next to it, `<file>.<ISO time>.<label>.bak`,
 * holding everything before the boundary. The copy is made while the planner thinks, and
 * removed again when the compaction writes nothing.
 */
import { constants } from "node:fs";
import { copyFile, open, stat, unlink } from "node:fs/promises";
import type { CompactionReason } from "./api.js";

/** The backup's label says what made the compaction (manual `compact`, or which automatic trigger). */
export const BACKUP_LABEL: Record<CompactionReason, string> = {
  manual: "compact",
  threshold: "auto-compact",
  overflow: "overflow-auto-compact",
};

/** What the backup needs of the session: its pending writes saved, or why they cannot be. */
export interface SessionFiling {
  flush(): Promise<void>;
  unsaved(): Promise<string | undefined>;
}

/** A new session's file appears with its first write: one that never succeeded left no file at all. */
async function unsavedReason(file: string, reason: string): Promise<string> {
  const exists = await stat(file).then(
    () => true,
    () => false,
  );
  const what = exists ? `some of the session's entries are not saved to ${file}` : `the session file ${file} has not been written yet`;
  return `${what} (${reason}): they are kept in memory, and compacting waits until they are saved`;
}

/** Throws a readable error when `file` cannot be appended to (read-only, gone, not a file). */
export async function assertWritable(file: string): Promise<void> {
  try {
    // r+: the file must exist and open for writing; nothing is written.
    const handle = await open(file, "r+");
    await handle.close();
  } catch (error) {
    throw new Error(`cannot write the session file ${file}: ${reasonOf(error)}`);
  }
}

/**
 * Copies `file` to `<file>.<time>.<label>.bak` (never overwriting: a second backup within the
 * same millisecond gets a counter) and returns the backup's path.
 *
 * @example
 * await backupSession("/s/a.jsonl", "compact"); // "/s/a.jsonl.2026-06-06T00-00-00-000Z.compact.bak"
 */
export async function backupSession(file: string, label: string, now: Date = new Date()): Promise<string> {
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  for (let attempt = 0; ; attempt++) {
    const path = `${file}.${stamp}${attempt === 0 ? "" : `-${attempt}`}.${label}.bak`;
    try {
      await copyFile(file, path, constants.COPYFILE_EXCL);
      return path;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST" && attempt < 100) continue;
      throw new Error(`cannot back up the session file ${file}: ${reasonOf(error)}`);
    }
  }
}

/** The backup of one compaction: started early, confirmed at commit or discarded. */
export class SessionBackup {
  readonly #file: string;
  readonly #flush: () => Promise<void>;
  readonly #copy: Promise<{ path: string; size: number }>;

  private constructor(file: string, flush: () => Promise<void>, label: string) {
    this.#file = file;
    this.#flush = flush;
    this.#copy = (async () => {
      const path = await backupSession(file, label);
      return { path, size: (await stat(path)).size };
    })();
    // Observed at commit or discard; never an unhandled rejection meanwhile.
    this.#copy.catch(() => undefined);
  }

  /**
   * Saves what is pending (one more try for entries a failed write kept back), checks the file can
   * be written (failing before any planner call), starts the copy. Entries not on disk would be
   * missing from the copy and could end up behind the compaction, so they stop it, saying why.
   */
  static async start(file: string, session: SessionFiling, reason: CompactionReason): Promise<SessionBackup> {
    const unsaved = await session.unsaved();
    if (unsaved !== undefined) throw new Error(await unsavedReason(file, unsaved));
    await assertWritable(file);
    return new SessionBackup(file, () => session.flush(), BACKUP_LABEL[reason]);
  }

  /** Right before the entry is appended: the copy is complete, current, and the file still writable. */
  async confirm(): Promise<string> {
    const { path, size } = await this.#copy;
    await this.#flush();
    await assertWritable(this.#file);
    // Something was appended while the planner ran (a user shell command): copy again.
    if ((await stat(this.#file)).size !== size) await copyFile(this.#file, path);
    return path;
  }

  /** The compaction wrote nothing: neither does its backup stay. */
  async discard(): Promise<void> {
    try {
      await unlink((await this.#copy).path);
    } catch {
      /* no copy was made */
    }
  }
}

function reasonOf(error: unknown): string {
  const err = error as NodeJS.ErrnoException;
  if (err?.code === "EACCES" || err?.code === "EPERM" || err?.code === "EROFS") return "it is read-only";
  if (err?.code === "ENOENT" || err?.code === "ENOTDIR") return "it no longer exists";
  if (err?.code === "EISDIR") return "it is a directory";
  return err instanceof Error ? err.message : String(error);
}
