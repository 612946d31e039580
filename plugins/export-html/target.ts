/**
 * Where an export may be written: a regular file (created 0600, in folders created 0700, like
 * auth.json) that is not the live session file. A FIFO, a device, a socket or a directory is
 * refused before anything is opened, so `/dev/stdout` never writes HTML into the protocol stream
 * and a FIFO never holds the command lane; the session file is refused before it is truncated.
 */
import type { Stats } from "node:fs";
import { stat, type FileHandle } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { ErrorCode, KernelError } from "../../kernel/index.js";
import { FolderError, makeFolder } from "../../lib/make-folder/index.js";
import { NotRegularFileError, openRegularForWrite } from "../../lib/regular-file/index.js";
import { nextTurn, textSlices } from "./escape.js";

/**
 * Opens `path` for the export, truncated; refusals are KernelErrors naming the path and the
 * reason. `isSessionFile` (the session store's) guards every other session file too: another
 * conversation or a compaction backup would be replaced by the page, past recovery.
 */
export async function openExportTarget(path: string, sessionFile: string, isSessionFile?: (path: string) => Promise<boolean>): Promise<FileHandle> {
  const session = await stat(sessionFile).catch(() => undefined);
  // The same file under another name (a symlink, a hard link, `./a/../x`) is still the session.
  const isSession = (stats: Stats) => resolve(path) === resolve(sessionFile) || (session !== undefined && stats.dev === session.dev && stats.ino === session.ino);
  const liveSession = `Cannot export to ${path}: it is the live session file`;
  if (resolve(path) === resolve(sessionFile)) throw new KernelError(ErrorCode.INVALID_INPUT, liveSession);
  const existing = await stat(path).catch(() => undefined);
  if (existing?.isFile() && !isSession(existing) && (await isSessionFile?.(path))) {
    throw new KernelError(ErrorCode.INVALID_INPUT, `Cannot export to ${path}: it is a session file, which the page would replace`);
  }
  try {
    await makeFolder(dirname(path), 0o700);
    return await openRegularForWrite(path, { mode: 0o600, refuse: (stats) => (isSession(stats) ? liveSession : undefined) });
  } catch (error) {
    if (error instanceof NotRegularFileError) {
      throw new KernelError(ErrorCode.INVALID_INPUT, `Cannot export to ${path}: it is a ${error.kind}, not a regular file`);
    }
    if (error instanceof FolderError) throw new KernelError(ErrorCode.INVALID_INPUT, `Cannot export to ${path}: ${error.message}`);
    if (error instanceof Error && error.message === liveSession) throw new KernelError(ErrorCode.INVALID_INPUT, liveSession);
    throw error;
  }
}

/** Buffered writes to an open file: strings in, few large writes out. */
export class FileSink {
  readonly #handle: FileHandle;
  #parts: string[] = [];
  #chars = 0;

  constructor(handle: FileHandle) {
    this.#handle = handle;
  }

  readonly write = async (text: string): Promise<void> => {
    this.#parts.push(text);
    this.#chars += text.length;
    if (this.#chars >= FLUSH_CHARS) await this.flush();
  };

  async flush(): Promise<void> {
    if (this.#parts.length === 0) return;
    const text = this.#parts.join("");
    this.#parts = [];
    this.#chars = 0;
    // Encoded a piece at a time: one 10 MB string would block the loop for ~100 ms.
    for (const piece of textSlices(text)) {
      const bytes = Buffer.from(piece, "utf8");
      for (let offset = 0; offset < bytes.length; ) offset += (await this.#handle.write(bytes, offset, bytes.length - offset)).bytesWritten;
      await nextTurn();
    }
  }
}

const FLUSH_CHARS = 1024 * 1024;
