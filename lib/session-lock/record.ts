/**
 * The ownership record beside a session file (`.<name>.lock`, hidden like the writer's
 * `.<name>.partial`, so nothing that lists a session folder takes it for a session): who holds
 * the file. It appears whole or not at all (written to a temp file, then hard-linked into place,
 * which fails when a record is there), and is removed only by its owner, or, once its owner is
 * gone, under the takeover mutex by whoever found it so (`mutex.ts`).
 */
import { link, open, readFile, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { secureRandomHex } from "../random-ids/index.js";
import type { ProcessIdentity } from "./process-identity.js";

export interface LockRecord extends ProcessIdentity {
  /** Distinguishes two holders in one process (two agents, siblings). */
  token: string;
  /** When it was taken (ISO). */
  since: string;
  file: string;
}

/** A record found on disk: `record` undefined when its text is not one (damaged, or being written without links). */
export interface FoundRecord {
  text: string;
  record: LockRecord | undefined;
  mtimeMs: number;
}

export function recordPath(file: string): string {
  return join(dirname(file), `.${basename(file)}.lock`);
}

/** The record at `path`, or undefined when there is none. */
export async function readRecord(path: string): Promise<FoundRecord | undefined> {
  let text: string;
  let mtimeMs: number;
  try {
    [text, mtimeMs] = await Promise.all([readFile(path, "utf8"), stat(path).then((info) => info.mtimeMs)]);
  } catch {
    return undefined;
  }
  return { text, record: parse(text), mtimeMs };
}

function parse(text: string): LockRecord | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockRecord>;
    if (typeof value.pid !== "number" || typeof value.token !== "string" || typeof value.machine !== "string") return undefined;
    return { startTime: null, since: "", file: "", ...value } as LockRecord;
  } catch {
    return undefined;
  }
}

/** Puts `record` at `path` if no record is there: true when it did, false when one is. */
export async function createRecord(path: string, record: LockRecord): Promise<boolean> {
  const text = JSON.stringify(record) + "\n";
  const tmp = `${path}.${process.pid}.${secureRandomHex(4)}.tmp`;
  try {
    await writeFile(tmp, text, { mode: 0o600 });
    await link(tmp, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    // A file system without hard links: exclusive create, then write (a reader may see it empty for a moment).
    if (code === "EPERM" || code === "ENOTSUP" || code === "ENOSYS" || code === "EOPNOTSUPP") return createExclusive(path, text);
    throw error;
  } finally {
    await rm(tmp, { force: true });
  }
}

async function createExclusive(path: string, text: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
  return true;
}
