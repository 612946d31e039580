/** The `ls` tool: one directory's entries, dotfiles included, directories marked with `/`. */
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { defineTool, type ToolResult } from "../../kernel/index.js";
import { errnoCode, fsError, optionalPath, resolveToolPath, throwIfAborted } from "./paths.js";
import { DEFAULT_MAX_BYTES, formatSize, truncateHead } from "../../lib/truncate/index.js";

const DEFAULT_LIMIT = 500;

const LsParams = () =>
  z.object({
    path: z.string().optional().describe("Directory to list, relative to the working directory or absolute. Defaults to the working directory."),
    limit: z.number().int().min(1).optional().describe(`Maximum number of entries to return. Defaults to ${DEFAULT_LIMIT}.`),
  });

export const lsTool = defineTool({
  name: "ls",
  description:
    "List the entries of a directory (not recursive), sorted case-insensitively, with a trailing '/' on " +
    "directories. Hidden entries (dotfiles) are included and .gitignore is not applied, so this shows what " +
    `is really on disk. Returns at most \`limit\` entries (default ${DEFAULT_LIMIT}). Use find for recursive searches.`,
  parameters: LsParams,
  async execute(args, ctx): Promise<ToolResult> {
    throwIfAborted(ctx.signal);
    const shownPath = optionalPath(args.path);
    const dir = resolveToolPath(ctx.cwd, shownPath);
    const entries = await readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
      if (errnoCode(error) === "ENOTDIR") throw new Error(`Not a directory: ${shownPath}`);
      throw fsError(error, shownPath, `Path not found: ${shownPath}`);
    });
    throwIfAborted(ctx.signal);
    if (entries.length === 0) return { content: [{ type: "text", text: "(empty directory)" }], details: { count: 0 } };

    entries.sort((a, b) => compareCaseInsensitive(a.name, b.name));
    const limit = args.limit ?? DEFAULT_LIMIT;
    const names: string[] = [];
    for (const entry of entries.slice(0, limit)) {
      // A symlink to a directory is listed as a directory, as `ls -F` would suggest.
      const isDirectory = entry.isDirectory() || (entry.isSymbolicLink() && (await isDirectoryTarget(join(dir, entry.name))));
      names.push(isDirectory ? `${entry.name}/` : entry.name);
    }
    const truncation = truncateHead(names.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
    const notices: string[] = [];
    if (entries.length > limit) notices.push(`${limit} entries limit reached (${entries.length} total). Use limit=${limit * 2} for more.`);
    if (truncation.truncated) notices.push(`${formatSize(DEFAULT_MAX_BYTES)} output limit reached: showing ${truncation.outputLines} entries.`);
    const text = truncation.content + (notices.length ? `\n\n[${notices.join(" ")}]` : "");
    return { content: [{ type: "text", text }], details: { count: entries.length, limitReached: entries.length > limit } };
  },
});

async function isDirectoryTarget(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );
}

/** Case-insensitive, locale-independent (stable across machines); exact case breaks ties. */
function compareCaseInsensitive(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  if (x !== y) return x < y ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
