/**
 * Reading a resource file (skill, prompt template) defensively: only regular files (a FIFO or a
 * device would hang or stream forever), capped in size, valid UTF-8 text without NUL bytes.
 * A problem is returned as a sentence for the caller's one-time stderr note, never thrown.
 */
import { constants as fsConstants } from "node:fs";
import { open } from "node:fs/promises";
import type { FileStamp } from "./fresh-scan.js";

/** Per file: far above any real skill or template, small enough that a stray file cannot flood a prompt. */
export const MAX_RESOURCE_BYTES = 256 * 1024;

export type ReadResult = { ok: true; text: string } | { ok: false; problem: string };

/** A read file's text with the stamp of the version read (what a cache keys it under). */
export type StampedRead = { ok: true; text: string; stamp: FileStamp } | { ok: false; problem: string; stamp?: FileStamp };

/** Reads `path` as text; `problem` says why it was refused (too large, binary, not a regular file, ...). */
export async function readResourceText(path: string, maxBytes = MAX_RESOURCE_BYTES): Promise<StampedRead> {
  let handle;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused by the stat below.
    handle = await open(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
  } catch (error) {
    return { ok: false, problem: describeFsError(error) };
  }
  try {
    const stats = await handle.stat();
    const stamp = { mtimeMs: stats.mtimeMs, size: stats.size, ino: stats.ino };
    if (!stats.isFile()) return { ok: false, problem: "not a regular file (a FIFO, socket or device)", stamp };
    if (stats.size > maxBytes) return { ok: false, problem: `too large (${stats.size} bytes; the limit is ${maxBytes})`, stamp };
    const buffer = await handle.readFile();
    if (buffer.length > maxBytes) return { ok: false, problem: `too large (over ${maxBytes} bytes)`, stamp };
    const decoded = decodeText(buffer);
    return decoded.ok ? { ...decoded, stamp } : { ...decoded, stamp };
  } catch (error) {
    return { ok: false, problem: describeFsError(error) };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** UTF-8 text or a problem: NUL bytes mean a binary file, invalid sequences mean not UTF-8. */
export function decodeText(buffer: Uint8Array): ReadResult {
  if (buffer.includes(0)) return { ok: false, problem: "a binary file (it contains NUL bytes)" };
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(buffer);
    return { ok: true, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
  } catch {
    return { ok: false, problem: "not valid UTF-8 text" };
  }
}

/** A short, stable description of a filesystem error (the code's meaning, not a stack). */
export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "ENOENT":
      return "it does not exist";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "ELOOP":
      return "a symlink loop";
    case "EISDIR":
      return "a folder, not a file";
    case "ENOTDIR":
      return "a path through something that is not a folder";
    default:
      return error instanceof Error ? error.message : String(error);
  }
}
