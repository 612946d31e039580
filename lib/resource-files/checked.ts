/**
 * The checks every candidate file or folder passes before it is read: symlinks are followed to
 * their real path, which for project data must stay inside the project; files must be regular
 * (a FIFO or device is refused, never opened); a symlink that leads back into a folder already
 * searched is a loop. A problem comes back as a sentence for the caller's stderr note.
 */
import { realpath, stat } from "node:fs/promises";
import { describeFsError } from "./read.js";
import type { FileStamp } from "./fresh-scan.js";
import { isInside } from "./places.js";

export type Checked<T> = ({ ok: true } & T) | { ok: false; problem: string; missing?: true };

/** A folder to search: its real path, confined when `confineTo` (a real path) is given. */
export async function checkFolder(path: string, confineTo?: string): Promise<Checked<{ realPath: string; isFile: boolean }>> {
  try {
    const stats = await stat(path);
    const realPath = await realpath(path);
    if (confineTo !== undefined && !isInside(realPath, confineTo)) return { ok: false, problem: `a symlink leaving the project (it leads to ${realPath})` };
    if (stats.isDirectory()) return { ok: true, realPath, isFile: false };
    if (stats.isFile()) return { ok: true, realPath, isFile: true };
    return { ok: false, problem: "not a regular file or folder (a FIFO, socket or device)" };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { ok: false, problem: describeFsError(error), missing: true };
    return { ok: false, problem: describeFsError(error) };
  }
}

/** A file to read: regular, confined when asked, with the stamp its parse is cached under. */
export async function checkFile(path: string, confineTo?: string): Promise<Checked<{ realPath: string; stamp: FileStamp }>> {
  try {
    const stats = await stat(path);
    if (!stats.isFile()) {
      return { ok: false, problem: stats.isDirectory() ? "a folder, not a file" : "not a regular file (a FIFO, socket or device)" };
    }
    const realPath = await realpath(path);
    if (confineTo !== undefined && !isInside(realPath, confineTo)) return { ok: false, problem: `a symlink leaving the project (it leads to ${realPath})` };
    return { ok: true, realPath, stamp: { mtimeMs: stats.mtimeMs, size: stats.size, ino: stats.ino } };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { ok: false, problem: describeFsError(error), missing: true };
    return { ok: false, problem: describeFsError(error) };
  }
}

async function realpathOrSelf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return path;
  }
}

/** The real path of `folder` for confinement checks (the folder itself when it cannot be resolved). */
export async function realFolder(folder: string): Promise<string> {
  return realpathOrSelf(folder);
}
