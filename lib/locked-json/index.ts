/**
 * Read-modify-write of a JSON config file that several processes may write at once (settings,
 * auth): under an advisory lock (proper-lockfile, loaded on first use), written atomically
 * (temp file + rename, so a reader never sees half a file), and never by replacing a file that
 * could not be parsed: that is an error naming the file, and the file is left as it was.
 */
import { secureRandomHex } from "../random-ids/index.js";
import { chmod, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { ErrorCode, KernelError } from "../../kernel/index.js";

export interface UpdateOptions {
  /** Permission bits of the file (auth.json: 0o600). */
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
    const tmp = `${path}.${process.pid}.${secureRandomHex(4)}.tmp`;
    try {
      await writeFile(tmp, JSON.stringify(next, null, 2) + "\n", { mode: options.mode ?? 0o644 });
      if (options.mode !== undefined) await chmod(tmp, options.mode);
      await rename(tmp, path);
    } catch (error) {
      await rm(tmp, { force: true });
      throw new KernelError(ErrorCode.UNAVAILABLE, `Cannot write ${path}: ${(error as Error).message}`);
    }
    return next;
  } finally {
    await release().catch(() => undefined);
  }
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
