/**
 * Reading many files fast for grep. fs/promises costs a FileHandle and several promise hops per
 * file (about 4 ms per 20 files here); the callback API with a few dozen reads in flight is
 * ~40x faster on a tree of small files. Memory stays bounded: only files up to PREFETCH_BYTES
 * are read ahead, a larger one is read when its turn comes, and files over MAX_FILE_BYTES are
 * skipped.
 */
import { close, constants, fstat, open, read } from "node:fs";

/** Non-blocking open: opening a FIFO for reading would otherwise wait for a writer, forever. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** Larger files are skipped (and reported) rather than loaded whole. */
export const MAX_FILE_BYTES = 32 * 1024 * 1024;
const PREFETCH_BYTES = 1024 * 1024;
const READ_AHEAD = 32;
const SNIFF_BYTES = 8 * 1024;

export const TOO_LARGE = Symbol("too large");
/** A file's bytes; null for binary, unreadable or non-regular files (a FIFO would block a read). */
export type Searchable = Buffer | null | typeof TOO_LARGE;

/** Yields each path's content in order, reading up to READ_AHEAD files concurrently. */
export async function* readSearchables(paths: readonly string[]): AsyncGenerator<Searchable> {
  const pending: Promise<Searchable | { later: string }>[] = [];
  let next = 0;
  for (let i = 0; i < paths.length; i++) {
    while (pending.length < READ_AHEAD && next < paths.length) pending.push(readFileBounded(paths[next++]!, PREFETCH_BYTES));
    const result = await pending.shift()!;
    yield result !== null && typeof result === "object" && "later" in result ? await readFileBounded(result.later, MAX_FILE_BYTES) as Searchable : result;
  }
}

function readFileBounded(path: string, maxBytes: number): Promise<Searchable | { later: string }> {
  return new Promise((resolve) => {
    open(path, OPEN_FLAGS, (openError, fd) => {
      if (openError) return resolve(null);
      const done = (value: Searchable | { later: string }) => close(fd, () => resolve(value));
      fstat(fd, (statError, info) => {
        if (statError || !info.isFile()) return done(null);
        if (info.size > MAX_FILE_BYTES) return done(TOO_LARGE);
        if (info.size > maxBytes) return done({ later: path });
        const buffer = Buffer.allocUnsafe(info.size);
        readAll(fd, buffer, 0, (readError, length) => {
          if (readError) return done(null);
          const bytes = buffer.subarray(0, length);
          done(bytes.subarray(0, SNIFF_BYTES).includes(0) ? null : bytes);
        });
      });
    });
  });
}

/** Reads until the buffer is full or the file ends (a file may shrink while we read it). */
function readAll(fd: number, buffer: Buffer, offset: number, callback: (error: Error | null, length: number) => void): void {
  if (offset >= buffer.length) return callback(null, offset);
  read(fd, buffer, offset, buffer.length - offset, offset, (error, bytesRead) => {
    if (error) return callback(error, offset);
    if (bytesRead === 0) return callback(null, offset);
    readAll(fd, buffer, offset + bytesRead, callback);
  });
}
