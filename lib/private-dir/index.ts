/**
 * A folder only this user can enter, for files the next process runs (jiti's transpiled
 * extensions): a shared folder such as the system temp dir lets another local user plant a
 * file there under the name the next load looks up. The folder is made 0700 (an existing one
 * of ours is narrowed to it); one that is not ours, not a folder, or a symlink is not used.
 * Synchronous: it runs once per loader, at boot, before the first import.
 */
import { chmodSync, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { makeFolderSync } from "../make-folder/index.js";

/** `path` made private, or undefined when it cannot be (the caller then caches nothing). */
export function privateDir(path: string): string | undefined {
  try {
    makeFolderSync(path, 0o700);
    const stats = lstatSync(path);
    if (!stats.isDirectory()) return undefined;
    if (process.getuid && stats.uid !== process.getuid()) return undefined;
    if ((stats.mode & 0o077) !== 0) chmodSync(path, 0o700);
    return path;
  } catch {
    return undefined;
  }
}

/**
 * Narrows the files of `dir` that others could read to 0600 (a writer that does not take a
 * mode, such as jiti, creates them `0666 & ~umask`). `seen` holds the names already checked,
 * so a boot that loads many files looks at each once.
 */
export function privatizeFiles(dir: string, seen: Set<string>): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (seen.has(name)) continue;
    try {
      const path = join(dir, name);
      const stats = lstatSync(path);
      if (stats.isFile() && (stats.mode & 0o077) !== 0) chmodSync(path, stats.mode & 0o700);
      seen.add(name);
    } catch {
      // Removed meanwhile (another process cleaning up): nothing to narrow.
    }
  }
}

/**
 * jiti's `fsCache` for code loaded on behalf of `agentDir`: its private `cache/jiti` folder, or
 * false (no cache, every load transpiles) when that folder cannot be made private. Never jiti's
 * default, the shared `<tmp>/jiti`.
 */
export function transpileCache(agentDir: string): string | false {
  return privateDir(join(agentDir, "cache", "jiti")) ?? false;
}
