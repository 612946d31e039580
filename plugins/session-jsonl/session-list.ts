/**
 * Lists stored sessions for `list_sessions` and `--session <id prefix>`, and finds the latest for
 * `--continue`. Each file's facts are cached by path, keyed by its size and mtime, so listing
 * 1,000 sessions again costs a directory read and a stat per file; a changed or new file is
 * scanned once, in blocks (`session-info-file.ts`), a bounded number at a time.
 */
import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import type { SessionInfo } from "../session/api.js";
import { isSessionFile, readSessionInfo } from "./session-info-file.js";

/** Files read at once: enough to overlap I/O, few enough to stay far from the fd limit. */
const CONCURRENCY = 32;

interface CacheEntry {
  size: number;
  mtimeMs: number;
  info: SessionInfo | undefined;
}

export class SessionLister {
  readonly #cache = new Map<string, CacheEntry>();

  /** Sessions in these folders (each read once), newest first. A missing folder lists nothing. */
  async list(dirs: readonly string[]): Promise<SessionInfo[]> {
    const files = (await Promise.all([...new Set(dirs.map((dir) => resolve(dir)))].map((dir) => this.#files(dir)))).flat();
    const infos = await mapLimit(files, CONCURRENCY, (file) => this.#info(file));
    return infos.filter((info): info is SessionInfo => info !== undefined).sort(newestFirst);
  }

  /**
   * The file of the session most recently written in `dir` (file mtime, as pi's --continue): a
   * stat per file and the first line of the newest (the next when that one is not a session).
   */
  async latest(dir: string): Promise<string | undefined> {
    const files = await this.#files(resolve(dir));
    const stamped = await mapLimit(files, CONCURRENCY, async (path) => ({
      path,
      mtimeMs: await stat(path).then(
        (s) => (s.isFile() ? s.mtimeMs : -1),
        () => -1,
      ),
    }));
    stamped.sort((a, b) => b.mtimeMs - a.mtimeMs);
    for (const { path, mtimeMs } of stamped) {
      if (mtimeMs < 0) break;
      if (await isSessionFile(path)) return path;
    }
    return undefined;
  }

  /** `root`'s session folders (one per working folder). */
  async folders(root: string): Promise<string[]> {
    return (await entries(root)).filter((entry) => entry.isDirectory()).map((entry) => join(root, entry.name));
  }

  async #files(dir: string): Promise<string[]> {
    const files = (await entries(dir)).filter((entry) => entry.name.endsWith(".jsonl") && !entry.isDirectory()).map((entry) => join(dir, entry.name));
    // Forget files that are gone, so the cache never outgrows what is on disk.
    const present = new Set(files);
    const prefix = dir.endsWith(sep) ? dir : dir + sep;
    for (const path of this.#cache.keys()) if (path.startsWith(prefix) && !path.slice(prefix.length).includes(sep) && !present.has(path)) this.#cache.delete(path);
    return files;
  }

  async #info(path: string): Promise<SessionInfo | undefined> {
    let stats;
    try {
      stats = await stat(path);
      // Only regular files: a FIFO named *.jsonl must not hang the listing.
      if (!stats.isFile()) return undefined;
      const cached = this.#cache.get(path);
      if (cached && cached.size === stats.size && cached.mtimeMs === stats.mtimeMs) return cached.info;
      const info = await readSessionInfo(path, stats);
      this.#cache.set(path, { size: stats.size, mtimeMs: stats.mtimeMs, info });
      return info;
    } catch {
      // Deleted or unreadable between the listing and now: not listed.
      return undefined;
    }
  }
}

/** ISO times in one format compare as strings; ties by path, so the order is stable. */
function newestFirst(a: SessionInfo, b: SessionInfo): number {
  if (a.modified !== b.modified) return a.modified < b.modified ? 1 : -1;
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

async function entries(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      out[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
