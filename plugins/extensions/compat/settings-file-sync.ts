/**
 * Synchronous updates of a settings file for pi's compatibility classes, whose setters are
 * synchronous: written as Atomic's own writers write (lib/locked-json), under the file's lock
 * (proper-lockfile's `<file>.lock`), read again inside it so another process's change since is
 * kept, through a temp file and a rename, never over a file that cannot be parsed or one holding
 * `//` comments the rewrite would drop.
 */
import { existsSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { describeJsonError } from "../../../lib/json-error/index.js";
import { readJsonc } from "../../../lib/jsonc/index.js";
import { makeFolderSync } from "../../../lib/make-folder/index.js";

export type Settings = Record<string, unknown>;

const LOCK_WAIT_MS = 5_000;

/** The file as startup reads it (lib/jsonc); `forUpdate`: one with comments is refused. */
export function readSettingsFile(path: string, forUpdate = false): Settings {
  if (!existsSync(path)) return {};
  const text = readFileSync(path, "utf8");
  if (text.trim() === "") return {};
  let parsed: unknown;
  let comments: boolean;
  try {
    ({ value: parsed, comments } = readJsonc(text));
  } catch (error) {
    throw new Error(`Invalid JSON in ${path}: ${describeJsonError(text, error)}`);
  }
  if (forUpdate && comments) throw new Error(`Cannot update ${path}: it holds // comments, which writing it would drop; remove them first, or make the change in the file by hand`);
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error(`Invalid settings file ${path}: expected an object`);
  return parsed as Settings;
}

/** Applies `mutate` to the file's current content and writes the result; returns what was written. */
export function updateSettingsFile(path: string, mutate: (settings: Settings) => Settings): Settings {
  const release = lockFile(path);
  try {
    const next = mutate(readSettingsFile(path, true));
    const target = existsSync(path) ? realpathSync(path) : path;
    const mode = existsSync(target) ? statSync(target).mode & 0o7777 : 0o644;
    const tmp = `${target}.${process.pid}.settings.tmp`;
    try {
      writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`, { mode });
      renameSync(tmp, target);
    } finally {
      rmSync(tmp, { force: true });
    }
    return next;
  } finally {
    release();
  }
}

/** The lock Atomic's settings writers take, waited for a few seconds; proper-lockfile loads on first use. */
function lockFile(path: string): () => void {
  const { lockSync } = createRequire(import.meta.url)("proper-lockfile") as typeof import("proper-lockfile");
  makeFolderSync(dirname(path));
  const target = existsSync(path) ? realpathSync(path) : path;
  const deadline = Date.now() + LOCK_WAIT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      return lockSync(target, { realpath: false, stale: 10_000 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ELOCKED" || Date.now() >= deadline)
        throw new Error(`Cannot update ${path}: it is locked by another process (${(error as Error).message})`);
      Atomics.wait(pause, 0, 0, 20);
    }
  }
}
