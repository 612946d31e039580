/**
 * The `grep` tool, in Node (no rg/grep binary needed): JavaScript regular expressions over the
 * files `listFiles` yields (gitignore-aware), binary files skipped. Output is bounded three ways:
 * the match limit, 500 characters per line, and 50 KiB in total.
 */
import { stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { z } from "zod";
import { defineTool, type ToolResult } from "../../kernel/index.js";
import { fsError, optionalPath, resolveToolPath, throwIfAborted } from "./paths.js";
import { DEFAULT_MAX_BYTES, formatSize } from "../../lib/truncate/index.js";
import { MAX_FILE_BYTES, readSearchables, TOO_LARGE } from "./grep-read.js";
import { anyDepthGlob, listFiles } from "./walk.js";

const DEFAULT_LIMIT = 100;
const MAX_LINE_CHARS = 500;

const GrepParams = () => z.object({
  pattern: z.string().min(1).describe("Regular expression (JavaScript syntax) to search for; with literal=true, a plain string."),
  path: z.string().optional().describe("Directory or file to search, relative to the working directory or absolute. Defaults to the working directory."),
  glob: z.string().optional().describe("Only search files matching this glob, e.g. '*.ts' (any depth) or 'src/**/*.{js,ts}'."),
  ignoreCase: z.boolean().optional().describe("Match case-insensitively. Defaults to false."),
  literal: z.boolean().optional().describe("Treat the pattern as a literal string instead of a regular expression. Defaults to false."),
  context: z.number().int().min(0).optional().describe("Number of lines of context to show before and after each match. Defaults to 0."),
  limit: z.number().int().min(1).optional().describe(`Maximum number of matches to return. Defaults to ${DEFAULT_LIMIT}.`),
});

export const grepTool = defineTool({
  name: "grep",
  description:
    "Search file contents for a regular expression (or a literal string) and return matching lines as " +
    "`path:line: text`, with context lines as `path-line- text`. Searches recursively from `path` (default: " +
    "the working directory), respects .gitignore, skips .git, node_modules and binary files, and can be narrowed " +
    `with a glob. Returns at most \`limit\` matches (default ${DEFAULT_LIMIT}) and ${formatSize(DEFAULT_MAX_BYTES)} of output; ` +
    `lines longer than ${MAX_LINE_CHARS} characters are cut. Prefer it over bash grep for code search.`,
  parameters: GrepParams,
  async execute(args, ctx): Promise<ToolResult> {
    throwIfAborted(ctx.signal);
    const regex = buildRegex(args.pattern, args.literal ?? false, args.ignoreCase ?? false);
    const limit = args.limit ?? DEFAULT_LIMIT;
    const context = args.context ?? 0;
    const shownPath = optionalPath(args.path);
    const target = resolveToolPath(ctx.cwd, shownPath);
    const info = await stat(target).catch((error: unknown) => {
      throw fsError(error, shownPath, `Path not found: ${shownPath}`);
    });
    const root = info.isDirectory() ? target : dirname(target);
    const files = info.isDirectory()
      ? await listFiles(root, [anyDepthGlob(args.glob ?? "**/*")], { signal: ctx.signal })
      : [basename(target)];

    const out = new BoundedOutput(DEFAULT_MAX_BYTES);
    let matches = 0;
    let cutLines = false;
    let skippedLarge = 0;
    const contents = readSearchables(files.map((file) => join(root, file)));
    for (const file of files) {
      if (matches >= limit || out.full) break;
      throwIfAborted(ctx.signal);
      const bytes = (await contents.next()).value;
      if (bytes === TOO_LARGE) skippedLarge++;
      if (!(bytes instanceof Buffer)) continue;
      const lines = bytes.toString("utf8").replace(/\r$/gm, "").split("\n");
      if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
      let printedUpTo = -1; // last line index already printed for this file
      for (let i = 0; i < lines.length && matches < limit && !out.full; i++) {
        if (!regex.test(lines[i]!)) continue;
        matches++;
        const from = Math.max(i - context, printedUpTo + 1);
        if (context > 0 && printedUpTo >= 0 && from > printedUpTo + 1) out.push("--");
        const to = Math.min(i + context, lines.length - 1);
        for (let j = from; j <= to; j++) {
          // A later match inside this context window is printed as a match when the loop reaches it.
          if (j > i && regex.test(lines[j]!)) break;
          const { text: shown, cut } = clip(lines[j]!);
          cutLines ||= cut;
          out.push(j === i ? `${file}:${j + 1}: ${shown}` : `${file}-${j + 1}- ${shown}`);
          printedUpTo = j;
        }
      }
    }

    if (matches === 0) return { content: [{ type: "text", text: "No matches found" }], details: { matches: 0 } };
    const notices: string[] = [];
    if (matches >= limit) notices.push(`${limit} matches limit reached. Use limit=${limit * 2} for more, or refine the pattern.`);
    if (out.full) notices.push(`${formatSize(DEFAULT_MAX_BYTES)} output limit reached. Refine the pattern or path to see more.`);
    if (cutLines) notices.push(`Some lines were cut to ${MAX_LINE_CHARS} characters. Use the read tool to see them in full.`);
    if (skippedLarge > 0) notices.push(`Skipped ${skippedLarge} file(s) larger than ${formatSize(MAX_FILE_BYTES)}.`);
    const text = out.text() + (notices.length ? `\n\n[${notices.join(" ")}]` : "");
    return { content: [{ type: "text", text }], details: { matches, limitReached: matches >= limit, truncated: out.full } };
  },
});

function buildRegex(pattern: string, literal: boolean, ignoreCase: boolean): RegExp {
  const source = literal ? pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") : pattern;
  try {
    return new RegExp(source, ignoreCase ? "iu" : "u");
  } catch {
    try {
      // Some valid non-unicode patterns (e.g. `\-`) are rejected in u-mode.
      return new RegExp(source, ignoreCase ? "i" : "");
    } catch (error) {
      throw new Error((error as Error).message); // "Invalid regular expression: /(/: Unterminated group"
    }
  }
}

function clip(line: string): { text: string; cut: boolean } {
  return line.length > MAX_LINE_CHARS ? { text: `${line.slice(0, MAX_LINE_CHARS)}... [truncated]`, cut: true } : { text: line, cut: false };
}

/** Collects whole output lines until the byte budget would be exceeded. */
class BoundedOutput {
  readonly #lines: string[] = [];
  #bytes = 0;
  full = false;
  constructor(readonly maxBytes: number) {}

  push(line: string): void {
    if (this.full) return;
    const bytes = Buffer.byteLength(line, "utf8") + (this.#lines.length > 0 ? 1 : 0);
    if (this.#bytes + bytes > this.maxBytes) {
      this.full = true;
      return;
    }
    this.#lines.push(line);
    this.#bytes += bytes;
  }

  text(): string {
    return this.#lines.join("\n");
  }
}
