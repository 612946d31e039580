/**
 * Read-modify-write of a JSON config file that several processes may write at once (settings,
 * auth): under an advisory lock (proper-lockfile, loaded on first use), written atomically
 * (temp file + rename, so a reader never sees half a file), and never by replacing a file that
 * could not be parsed, or one with `//` comments (the config readers allow them; a rewrite would
 * drop them): that is an error naming the file, and the file is left as it was.
 *
 * A file that is a symlink (a dotfile manager's) is written through to its target, which keeps
 * its permission bits: renaming over the link would replace it with a regular file of the
 * default mode, unlinking the user's dotfiles repository from what Atomic writes.
 */
import { secureRandomHex } from "../random-ids/index.js";
import { chmod, readFile, readlink, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import { setTimeout as delay } from "node:timers/promises";
import { dirname, resolve } from "node:path";
import { ErrorCode, KernelError, type SharedScope } from "../../kernel/index.js";
import { describeJsonError } from "../json-error/index.js";
import { makeFolder } from "../make-folder/index.js";
import { readJsonc } from "../jsonc/index.js";

export interface UpdateOptions {
  /** Permission bits of a new file, and the most an existing one keeps (auth.json: 0o600). */
  mode?: number;
  /** Permission bits of a folder created for it. */
  dirMode?: number;
}

type JsonObject = Record<string, unknown>;

/** Applies `mutate` to the file's current object (`{}` when missing) and writes the result; returns it. */
export async function updateJsonFile(path: string, mutate: (current: JsonObject) => JsonObject | void, options: UpdateOptions = {}): Promise<JsonObject> {
  return modifyJsonFile(
    path,
    async (current) => {
      const next = mutate(current) ?? current;
      return { next, result: next };
    },
    options,
  );
}

export interface ModifyOptions extends UpdateOptions {
  /**
   * How long to wait for another holder of the lock (default 10 s). A holder that works over the
   * network under the lock (an OAuth refresh) needs its waiters to wait longer than it may take.
   */
  lockWaitMs?: number;
}

/**
 * The general form: `modify` runs under the lock with the file's current object and may await
 * (a network call whose answer must be written before anyone else reads the file). It returns
 * `next` to write (omitted: nothing is written) and the `result` to resolve with.
 */
export async function modifyJsonFile<T>(path: string, modify: (current: JsonObject) => Promise<{ next?: JsonObject; result: T }>, options: ModifyOptions = {}): Promise<T> {
  await makeFolder(dirname(path), options.dirMode || undefined);
  const release = await acquireLock(path, options.lockWaitMs ?? 10_000);
  try {
    const { next, result } = await modify(await readObject(path));
    if (next !== undefined) await writeObject(path, next, options);
    return result;
  } finally {
    await release().catch(() => undefined);
  }
}

/**
 * The lock of the file the path resolves to (pi locks `realpath(auth.json)` too, so an agent dir
 * shared with pi takes one lock), or of the path itself while nothing exists there yet.
 */
async function acquireLock(path: string, waitMs: number): Promise<() => Promise<void>> {
  const { lock } = await import("proper-lockfile");
  const target = await realpath(path).catch(() => path);
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    try {
      // realpath: false locks a file that does not exist yet.
      return await lock(target, { realpath: false, stale: 10_000 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ELOCKED" || Date.now() >= deadline) {
        throw new KernelError(ErrorCode.CONFLICT, `Cannot update ${path}: it is locked by another process (${(error as Error).message})`);
      }
      await delay(Math.min(5 * 1.5 ** attempt, 100, Math.max(1, deadline - Date.now())));
    }
  }
}

async function writeObject(path: string, next: JsonObject, options: UpdateOptions): Promise<void> {
  let tmp: string | undefined;
  try {
    const target = await linkTarget(path);
    const existing = await stat(target).catch(() => undefined);
    const mode = existing ? existing.mode & 0o7777 & (options.mode ?? 0o7777) : (options.mode ?? 0o644);
    tmp = `${target}.${process.pid}.${secureRandomHex(4)}.tmp`;
    await writeFile(tmp, JSON.stringify(next, null, 2) + "\n", { mode });
    // writeFile's mode is narrowed by the umask: an existing file keeps exactly what it had.
    if (existing || options.mode !== undefined) await chmod(tmp, mode);
    await rename(tmp, target);
  } catch (error) {
    if (error instanceof KernelError) throw error;
    if (tmp) await rm(tmp, { force: true });
    throw new KernelError(ErrorCode.UNAVAILABLE, `Cannot write ${path}: ${(error as Error).message}`);
  }
}

/**
 * The updates the agents of one process make (`sharedJsonUpdates`): one at a time per file,
 * queued here instead of each polling the file lock (which still keeps other processes out).
 */
export class JsonFileUpdates {
  readonly #tails = new Map<string, Promise<unknown>>();

  update(path: string, mutate: (current: JsonObject) => JsonObject | void, options: UpdateOptions = {}): Promise<JsonObject> {
    const key = resolve(path);
    const run = () => updateJsonFile(path, mutate, options);
    const next = (this.#tails.get(key) ?? Promise.resolve()).then(run, run);
    const tail = next.catch(() => undefined);
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return next;
  }
}

/** The process scope's queue of JSON file updates (settings, auth), shared by every plugin that writes them. */
export function sharedJsonUpdates(shared: SharedScope): JsonFileUpdates {
  return shared.acquire("locked-json.updates", () => new JsonFileUpdates()).value;
}

/** The file a write to `path` lands in: `path` itself, or where its chain of symlinks leads. */
async function linkTarget(path: string): Promise<string> {
  let current = path;
  for (let hops = 0; hops < 40; hops++) {
    let link: string;
    try {
      link = await readlink(current);
    } catch (error) {
      // Not a link (EINVAL), or nothing there yet (ENOENT): this is the file.
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EINVAL" || code === "ENOENT") return current;
      throw error;
    }
    current = resolve(dirname(current), link);
  }
  throw new KernelError(ErrorCode.UNAVAILABLE, `Cannot write ${path}: too many levels of symbolic links`);
}

async function readObject(path: string): Promise<JsonObject> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new KernelError(ErrorCode.UNAVAILABLE, `Cannot read ${path}: ${(error as Error).message}`);
  }
  if (text.trim() === "") return {};
  let value: unknown;
  let comments: boolean;
  try {
    // Read as the config readers read it (lib/jsonc): a trailing comma is nothing to keep.
    ({ value, comments } = readJsonc(text));
  } catch (error) {
    throw new KernelError(ErrorCode.CONFIG_INVALID, `Cannot update ${path}: it is not valid JSON (${describeJsonError(text, error)}); fix or remove it first`);
  }
  // A comment is the user's: the file is written back as JSON.stringify gives it, without them.
  if (comments) {
    throw new KernelError(
      ErrorCode.CONFIG_INVALID,
      `Cannot update ${path}: it holds // comments, which writing it would drop; remove them first, or make the change in the file by hand`,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new KernelError(ErrorCode.CONFIG_INVALID, `Cannot update ${path}: it does not hold a JSON object; fix or remove it first`);
  }
  return value as JsonObject;
}
