/**
 * Opening files that must be regular files, without ever blocking: opening a FIFO for reading
 * waits for a writer (for writing, for a reader) forever, and a device is never what a tool,
 * a context file, a session or an export means. The path is checked before opening (no side
 * effect on a device) and the open descriptor again after (the path may change in between).
 */
import { constants, type Stats } from "node:fs";
import { open, stat, type FileHandle } from "node:fs/promises";

/** Never blocks in open(2) on a FIFO; has no effect on a regular file. Absent on Windows. */
const NONBLOCK = constants.O_NONBLOCK ?? 0;

export type FileKind = "regular file" | "directory" | "FIFO" | "character device" | "block device" | "socket" | "symbolic link" | "special file";

/** What `stats` describes, in words an error message can use. */
export function fileKind(stats: Stats): FileKind {
  if (stats.isFile()) return "regular file";
  if (stats.isDirectory()) return "directory";
  if (stats.isFIFO()) return "FIFO";
  if (stats.isCharacterDevice()) return "character device";
  if (stats.isBlockDevice()) return "block device";
  if (stats.isSocket()) return "socket";
  if (stats.isSymbolicLink()) return "symbolic link";
  return "special file";
}

/** The path exists but is not a regular file; `kind` says what it is. */
export class NotRegularFileError extends Error {
  readonly code = "ENOTREGULAR";
  constructor(
    readonly path: string,
    readonly kind: FileKind,
  ) {
    super(`${path} is a ${kind}, not a regular file`);
    this.name = "NotRegularFileError";
  }
}

/** Throws NotRegularFileError unless `stats` is a regular file. */
export function assertRegular(path: string, stats: Stats): void {
  if (!stats.isFile()) throw new NotRegularFileError(path, fileKind(stats));
}

/**
 * Opens an existing regular file for reading. ENOENT and friends propagate as usual. `stats`:
 * the caller's own stat of `path`, which spares the check before opening (a listing that has
 * just stat'ed 1,000 files); the descriptor is checked all the same.
 */
export async function openRegularForRead(path: string, stats?: Stats): Promise<FileHandle> {
  assertRegular(path, stats ?? (await stat(path)));
  return checked(path, await open(path, constants.O_RDONLY | NONBLOCK));
}

export interface WriteOpenOptions {
  /** Permission bits for a file this call creates (an existing file keeps its own). Default 0600. */
  mode?: number;
  /** "truncate" (default) replaces the content, "append" writes at the end. */
  how?: "truncate" | "append";
  /** Refused with `refuse(stats)`'s message when it returns one (e.g. "the live session file"). */
  refuse?: (stats: Stats) => string | undefined;
}

/**
 * Opens a regular file for writing, creating it when absent. A FIFO, device or socket is
 * refused before anything is opened; the content is truncated only after the open descriptor
 * proved to be a regular file that `refuse` accepts, so a refused target is never changed.
 */
export async function openRegularForWrite(path: string, options: WriteOpenOptions = {}): Promise<FileHandle> {
  const before = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (before) guard(path, before, options.refuse);
  const append = options.how === "append" ? constants.O_APPEND : 0;
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_WRONLY | constants.O_CREAT | append | NONBLOCK, options.mode ?? 0o600);
  } catch (error) {
    // ENXIO: a FIFO (or socket) without a reader appeared at the path after the check.
    if ((error as NodeJS.ErrnoException).code === "ENXIO") throw new NotRegularFileError(path, "FIFO");
    throw error;
  }
  try {
    guard(path, await handle.stat(), options.refuse);
    if (options.how !== "append") await handle.truncate(0);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

function guard(path: string, stats: Stats, refuse: WriteOpenOptions["refuse"]): void {
  assertRegular(path, stats);
  const reason = refuse?.(stats);
  if (reason !== undefined) throw new Error(reason);
}

async function checked(path: string, handle: FileHandle): Promise<FileHandle> {
  try {
    assertRegular(path, await handle.stat());
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}
