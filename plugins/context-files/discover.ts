/**
 * Finding and reading context files: the agent dir's own AGENTS.md/CLAUDE.md first, then per
 * directory from the filesystem root down to the cwd the first of AGENTS.md, CLAUDE.md.
 * Asynchronous throughout (a prompt never blocks the event loop on disk), each file capped.
 *
 * Project files are data from a cloned repository (docs/decisions.md, Trust): one is read only when it
 * is a regular file inside the project, so an `AGENTS.md -> ~/.aws/credentials` link is never
 * sent to a provider, and a FIFO or device never stalls the prompt. Such a file is skipped and
 * reported through `onSkip`; the next name in the directory is tried. The agent dir is the
 * user's own: its files may link anywhere, but must still be regular files.
 */
import { lstat, realpath, stat } from "node:fs/promises";
import { dirname, join, relative, resolve, isAbsolute } from "node:path";
import { fileKind, openRegularForRead } from "../../lib/regular-file/index.js";

/** Names tried in each directory, in order; the first one that exists is used. */
export const CONTEXT_FILE_NAMES = ["AGENTS.md", "CLAUDE.md"] as const;
/** Per file: enough for real instructions, small enough that a stray huge file cannot flood the prompt. */
export const MAX_CONTEXT_FILE_BYTES = 64 * 1024;

export interface ContextFile {
  path: string;
  content: string;
  /** Full size in bytes when the content was cut at the cap. */
  truncatedFrom?: number;
}

export interface DiscoverOptions {
  maxBytes?: number;
  /** Called for each file that exists but is not used, with the reason. */
  onSkip?: (path: string, reason: string) => void;
}

/** Directories from the filesystem root down to `cwd`, inclusive. */
export function ancestry(cwd: string): string[] {
  const chain: string[] = [];
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    chain.unshift(dir);
    if (dirname(dir) === dir) return chain;
  }
}

/** The nearest directory at or above `cwd` holding a `.git` (dir or file), or undefined. */
export async function repositoryRoot(cwd: string): Promise<string | undefined> {
  const dirs = ancestry(cwd);
  const marked = await Promise.all(
    dirs.map((dir) =>
      lstat(join(dir, ".git")).then(
        () => true,
        () => false,
      ),
    ),
  );
  return dirs.findLast((_, index) => marked[index]);
}

/**
 * Where a project file in `dir` may point: anywhere in the repository when `dir` is inside the
 * one around the cwd (a monorepo package linking to shared docs), else only inside `dir`.
 */
export function projectBoundary(dir: string, repoRoot: string | undefined): string {
  return repoRoot !== undefined && isInside(dir, repoRoot) ? repoRoot : dir;
}

/** Every context file that applies to `cwd`, in prompt order, each read at most once. */
export async function discoverContextFiles(agentDir: string, cwd: string, options: DiscoverOptions = {}): Promise<ContextFile[]> {
  const maxBytes = options.maxBytes ?? MAX_CONTEXT_FILE_BYTES;
  const onSkip = options.onSkip ?? (() => undefined);
  const userDir = resolve(agentDir);
  const repoRoot = await repositoryRoot(cwd);
  const dirs = [userDir, ...ancestry(cwd).filter((dir) => dir !== userDir)];
  // All directories are probed concurrently; the order of the result follows `dirs`.
  const found = await Promise.all(dirs.map((dir) => firstUsable(dir, dir === userDir ? undefined : projectBoundary(dir, repoRoot), maxBytes, onSkip)));
  return found.filter((file): file is ContextFile => file !== undefined);
}

async function firstUsable(dir: string, boundary: string | undefined, maxBytes: number, onSkip: NonNullable<DiscoverOptions["onSkip"]>): Promise<ContextFile | undefined> {
  for (const name of CONTEXT_FILE_NAMES) {
    const path = join(dir, name);
    const verdict = await inspect(path, boundary);
    if (verdict === undefined) continue;
    if (typeof verdict === "object") {
      onSkip(path, verdict.skip);
      continue;
    }
    const file = await readCapped(verdict, maxBytes, path);
    if (file) return file;
  }
  return undefined;
}

/**
 * The real path to read, `{skip}` with the reason it must not be read, or undefined when there
 * is nothing to read (absent, a dangling link, a directory).
 */
async function inspect(path: string, boundary: string | undefined): Promise<string | { skip: string } | undefined> {
  try {
    const link = await lstat(path);
    let target = path;
    if (link.isSymbolicLink()) {
      target = await realpath(path);
      if (boundary !== undefined && !isInside(target, await realpath(boundary))) {
        return { skip: `it links to ${target}, outside the project ${boundary}` };
      }
    }
    const info = link.isSymbolicLink() ? await stat(target) : link;
    if (info.isDirectory()) return undefined;
    if (!info.isFile()) return { skip: `it is a ${fileKind(info)}, not a regular file` };
    return target;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    return { skip: `it cannot be read (${code ?? String(error)})` };
  }
}

/**
 * Reads at most `maxBytes` of a regular file (cut back to a whole UTF-8 character); undefined
 * when it cannot be read. `shownPath` is the path the prompt names (the link, not its target).
 */
export async function readCapped(path: string, maxBytes: number, shownPath = path): Promise<ContextFile | undefined> {
  let handle;
  try {
    handle = await openRegularForRead(path);
  } catch {
    return undefined;
  }
  try {
    const stats = await handle.stat();
    const buffer = Buffer.alloc(Math.min(stats.size, maxBytes));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (stats.size <= maxBytes) return { path: shownPath, content: buffer.subarray(0, bytesRead).toString("utf8") };
    return { path: shownPath, content: buffer.subarray(0, utf8Boundary(buffer, bytesRead)).toString("utf8"), truncatedFrom: stats.size };
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** Largest length <= `end` that does not split a multi-byte UTF-8 character. */
function utf8Boundary(buffer: Buffer, end: number): number {
  let start = end;
  // Step back over continuation bytes (10xxxxxx) to the lead byte of the last character.
  while (start > 0 && (buffer[start - 1]! & 0xc0) === 0x80) start--;
  if (start === 0) return end;
  const lead = buffer[start - 1]!;
  const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return start - 1 + length <= end ? end : start - 1;
}

/** The `# Project Context` section, or "" when there is nothing to add. */
export function renderProjectContext(files: readonly ContextFile[]): string {
  if (files.length === 0) return "";
  const blocks = files.map((file) => {
    const note = file.truncatedFrom === undefined ? "" : `\n[Truncated: showing the first ${Buffer.byteLength(file.content)} of ${file.truncatedFrom} bytes]`;
    return `<context_file path="${escapeAttribute(file.path)}">\n${file.content.trimEnd()}${note}\n</context_file>`;
  });
  return `# Project Context\n\nProject-specific instructions and guidelines:\n\n${blocks.join("\n\n")}`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}
