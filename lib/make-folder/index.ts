/**
 * `mkdir -p` that cannot hang. Node's `mkdir(path, { recursive: true })` reads every ENOENT as
 * "the parent is missing" and retries in C++ forever: on procfs/sysfs (`/proc/nope/x`) the parent
 * exists and the kernel still answers ENOENT, so the call never settles and the process spins at
 * 100% CPU, deaf to aborts. Here the missing levels are found first (walking up to the nearest
 * thing that exists) and made one at a time without `recursive`, so a level whose parent exists
 * but which cannot be made fails at once, and a parent that is a file is named as such instead
 * of a bare EEXIST.
 */
import { mkdirSync, statSync, type Stats } from "node:fs";
import { mkdir, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";

/** A folder that could not be made: `code` is the errno code (ENOENT, ENOTDIR, ...), `path` the level at fault. */
export class FolderError extends Error {
  readonly code: string;
  readonly path: string;
  constructor(message: string, code: string, path: string) {
    super(message);
    this.name = "FolderError";
    this.code = code;
    this.path = path;
  }
}

/** Makes `path` and any missing ancestors (each created with `mode`, like `mkdir -p`); a folder already there is fine. */
export async function makeFolder(path: string, mode?: number): Promise<void> {
  const missing: string[] = [];
  for (let level = resolve(path); isMissing(level, await stat(level).catch(absent), missing); level = dirname(level));
  for (const level of missing.reverse()) {
    try {
      await mkdir(level, mode === undefined ? {} : { mode });
    } catch (error) {
      const failure = mkdirFailure(level, error, await isFolder(level), await isFolder(dirname(level)));
      if (failure) throw failure;
    }
  }
}

/** The synchronous form of `makeFolder`, for callers that run before the event loop matters (boot, exit). */
export function makeFolderSync(path: string, mode?: number): void {
  const missing: string[] = [];
  for (let level = resolve(path); isMissing(level, statOrAbsent(level), missing); level = dirname(level));
  for (const level of missing.reverse()) {
    try {
      mkdirSync(level, mode === undefined ? {} : { mode });
    } catch (error) {
      const failure = mkdirFailure(level, error, isFolderSync(level), isFolderSync(dirname(level)));
      if (failure) throw failure;
    }
  }
}

/** One step up the walk: true when `level` is missing (noted; go on to its parent), false at the folder to build from. */
function isMissing(level: string, found: Stats | "absent", missing: string[]): boolean {
  if (found !== "absent") {
    if (!found.isDirectory()) throw notAFolder(level);
    return false;
  }
  if (dirname(level) === level) throw refused(level, "ENOENT");
  missing.push(level);
  return true;
}

/** What a failed mkdir of `level` means: undefined when it is a folder now (made meanwhile by someone else), else the error to throw. */
function mkdirFailure(level: string, error: unknown, levelIsFolder: boolean, parentIsFolder: boolean): unknown {
  const code = errnoCode(error);
  // A file or a dangling link took the name.
  if (code === "EEXIST") return levelIsFolder ? undefined : notAFolder(level);
  // The parent is there and the level still "does not exist": the file system will never have it.
  if (code === "ENOENT" && parentIsFolder) return refused(level, code);
  return error;
}

/** "absent" for the errors that mean nothing is at this level (ENOTDIR: an ancestor is a file, found further up); others throw. */
function absent(error: unknown): "absent" {
  const code = errnoCode(error);
  if (code === "ENOENT" || code === "ENOTDIR") return "absent";
  throw error;
}

function statOrAbsent(level: string): Stats | "absent" {
  try {
    return statSync(level);
  } catch (error) {
    return absent(error);
  }
}

async function isFolder(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() === true;
}

function isFolderSync(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function refused(level: string, code: string): FolderError {
  return new FolderError(`Cannot create folder ${level}: the file system refuses it (${code})`, code, level);
}

function notAFolder(level: string): FolderError {
  return new FolderError(`${level} is not a folder`, "ENOTDIR", level);
}

function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
