/**
 * Whether a path still names the file a writer holds open, and writing a file whole at a path
 * without replacing whatever may have appeared there. An open descriptor outlives its name: a
 * session file deleted or moved away while in use takes every later append with it, unseen.
 */
import type { Stats } from "node:fs";
import { link, rename, rm, stat, unlink, type FileHandle } from "node:fs/promises";
import { openRegularForWrite } from "../../lib/regular-file/index.js";

/** A file as the system knows it, whatever its name. */
export interface FileIdentity {
  dev: number;
  ino: number;
}

export const identityOf = (stats: Stats): FileIdentity => ({ dev: stats.dev, ino: stats.ino });

/**
 * What `path` names now: "ours" (the file of `identity`, or any file when there is none to
 * compare), "gone" (nothing: deleted, or moved away), "replaced" (another file), "unknown"
 * (the path cannot be checked, e.g. a folder on it lost its search permission).
 */
export type PathState = "ours" | "gone" | "replaced" | "unknown";

export async function pathState(path: string, identity: FileIdentity | undefined): Promise<PathState> {
  let stats: Stats;
  try {
    stats = await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? "gone" : "unknown";
  }
  if (identity === undefined) return "ours";
  return stats.dev === identity.dev && stats.ino === identity.ino ? "ours" : "replaced";
}

/** Something appeared at the path while the file was being written again: it is not replaced. */
export class PathTakenError extends Error {
  readonly code = "EEXIST";
}

/** Link or rename: a filesystem without hard links (some network and FUSE mounts) says one of these. */
const NO_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EMLINK", "EXDEV"]);

/** Gathered into writes of about this many characters: few calls, bounded memory. */
const CHUNK_CHARS = 1 << 20;

/**
 * Writes `text` (whole lines, in order) to `temp`, then gives it the name `path` only if the
 * path is still free; the returned handle is positioned at the end, ready for appends. On any
 * failure the temp file is removed and the error thrown (`PathTakenError` when the path was taken).
 */
export async function writeWholeFile(path: string, temp: string, text: Iterable<string>): Promise<FileHandle> {
  const handle = await openRegularForWrite(temp, { how: "truncate", mode: 0o600 });
  try {
    let chunk = "";
    for (const line of text) {
      chunk += line;
      if (chunk.length >= CHUNK_CHARS) {
        await writeFully(handle, Buffer.from(chunk, "utf8"));
        chunk = "";
      }
    }
    if (chunk !== "") await writeFully(handle, Buffer.from(chunk, "utf8"));
    await placeWithoutReplacing(temp, path);
    return handle;
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}

async function writeFully(handle: FileHandle, buffer: Buffer): Promise<void> {
  for (let offset = 0; offset < buffer.length; ) offset += (await handle.write(buffer, offset, buffer.length - offset)).bytesWritten;
}

/** A hard link fails when the path exists, so nothing there is ever replaced; a rename after a check where links are missing. */
async function placeWithoutReplacing(temp: string, path: string): Promise<void> {
  try {
    await link(temp, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    if (code === "EEXIST") throw new PathTakenError(`${path} was taken while the session was written again`);
    if (!NO_LINKS.has(code)) throw error;
    if ((await pathState(path, undefined)) !== "gone") throw new PathTakenError(`${path} was taken while the session was written again`);
    await rename(temp, path);
    return;
  }
  await unlink(temp);
}
