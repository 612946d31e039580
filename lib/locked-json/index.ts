/**
 * Read-modify-write of a JSON config file that several processes may write at once (settings,
 * auth): under an advisory lock (proper-lockfile, loaded on first use), written atomically
 * (temp file + rename, so a reader never sees half a file), and never by replacing a file that
 * could not be parsed: that is an error naming the file, and the file is left as it was.
 *
 * A file that is a symlink (a dotfile manager's) is written through to its target, which keeps
 * its permission bits: renaming over the link would replace it with a regular file of the
 * default mode, unlinking the user's dotfiles repository from what Atomic writes.
 */
import { secureRandomHex } from "../random-ids/index.js";
import { chmod, mkdir, readFile, readlink, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { ErrorCode, KernelError, type SharedScope } from "../../kernel/index.js";

export interface UpdateOptions {
  /** Permission bits of a new file, and the most an existing one keeps (auth.json: 0o600). */
  mode?: number;
  /** Permission bits of a folder created for it. */
  dirMode?: number;
}

type JsonObject = Record<string, unknown>;

/** Applies `mutate` to the file's current object (`{}` when missing) and writes the result; returns it. */
export async function updateJsonFile(path: string, mutate: (current: JsonObject) => JsonObject | void, options: UpdateOptions = {}): Promise<JsonObject> {
  await mkdir(dirname(path), { recursive: true, ...(options.dirMode ? { mode: options.dirMode } : {}) });
  const { lock } = await import("proper-lockfile");
  let release: () => Promise<void>;
  try {
    // realpath: false locks a file that does not exist yet; retries cover a busy concurrent writer.
    release = await lock(path, { realpath: false, stale: 10_000, retries: { retries: 100, minTimeout: 5, maxTimeout: 100, factor: 1.5 } });
  } catch (error) {
    throw new KernelError(ErrorCode.CONFLICT, `Cannot update ${path}: it is locked by another process (${(error as Error).message})`);
  }
  try {
    const current = await readObject(path);
    const next = mutate(current) ?? current;
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
    return next;
  } finally {
    await release().catch(() => undefined);
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
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new KernelError(ErrorCode.CONFIG_INVALID, `Cannot update ${path}: it is not valid JSON (${(error as Error).message}); fix or remove it first`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new KernelError(ErrorCode.CONFIG_INVALID, `Cannot update ${path}: it does not hold a JSON object; fix or remove it first`);
  }
  return value as JsonObject;
}
