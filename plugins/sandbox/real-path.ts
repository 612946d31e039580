/**
 * Where a path really leads, for checks made before a file is touched: the real path of its
 * deepest existing ancestor plus the rest, with symlinks resolved all the way, dangling ones
 * included (writing through a dangling link creates its target). `..` and `/proc/self/root` are
 * resolved by the system, so they cannot hide where a path goes.
 */
import { lstat, readlink, realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, relative, resolve, sep } from "node:path";

/** Linux gives up after 40 links in one lookup; so do we. */
const MAX_LINKS = 40;

export async function realPathOf(path: string, links = 0): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
  }
  if (links > MAX_LINKS) throw Object.assign(new Error(`Too many levels of symbolic links: ${path}`), { code: "ELOOP" });
  const info = await lstat(path).catch(() => undefined);
  if (info?.isSymbolicLink()) {
    const target = await readlink(path);
    const parent = await realPathOf(dirname(path), links + 1);
    return realPathOf(isAbsolute(target) ? target : resolve(parent, target), links + 1);
  }
  const parent = dirname(path);
  if (parent === path) return path;
  return resolve(await realPathOf(parent, links), basename(path));
}

/** Whether `child` is `parent` or inside it (both absolute and real). */
export function isWithin(child: string, parent: string): boolean {
  if (child === parent) return true;
  const prefix = parent.endsWith(sep) ? parent : parent + sep;
  return child.startsWith(prefix);
}

/** `child` relative to `parent` with `/` separators (child within parent). */
export function relativeWithin(child: string, parent: string): string {
  return relative(parent, child).split(sep).join("/");
}
