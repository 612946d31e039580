/**
 * Finding and reading context files: the agent dir's own AGENTS.md/CLAUDE.md first, then per
 * directory from the filesystem root down to the cwd the first of AGENTS.md, CLAUDE.md.
 * Asynchronous throughout (a prompt never blocks the event loop on disk), each file capped.
 */
import { open } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";

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

/** Directories from the filesystem root down to `cwd`, inclusive. */
export function ancestry(cwd: string): string[] {
  const chain: string[] = [];
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    chain.unshift(dir);
    if (dirname(dir) === dir) return chain;
  }
}

/** Every context file that applies to `cwd`, in prompt order, each read at most once. */
export async function discoverContextFiles(agentDir: string, cwd: string, maxBytes = MAX_CONTEXT_FILE_BYTES): Promise<ContextFile[]> {
  const dirs = [resolve(agentDir), ...ancestry(cwd).filter((dir) => dir !== resolve(agentDir))];
  // All directories are probed concurrently; the order of the result follows `dirs`.
  const found = await Promise.all(dirs.map((dir) => firstReadable(dir, maxBytes)));
  return found.filter((file): file is ContextFile => file !== undefined);
}

async function firstReadable(dir: string, maxBytes: number): Promise<ContextFile | undefined> {
  for (const name of CONTEXT_FILE_NAMES) {
    const file = await readCapped(join(dir, name), maxBytes);
    if (file) return file;
  }
  return undefined;
}

/** Reads at most `maxBytes` (cut back to a whole UTF-8 character); undefined when not a readable file. */
export async function readCapped(path: string, maxBytes: number): Promise<ContextFile | undefined> {
  let handle;
  try {
    handle = await open(path, "r");
  } catch {
    return undefined;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return undefined;
    const buffer = Buffer.alloc(Math.min(stats.size, maxBytes));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (stats.size <= maxBytes) return { path, content: buffer.subarray(0, bytesRead).toString("utf8") };
    return { path, content: buffer.subarray(0, utf8Boundary(buffer, bytesRead)).toString("utf8"), truncatedFrom: stats.size };
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
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
