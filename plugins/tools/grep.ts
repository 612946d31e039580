/**
 * The `grep` tool, in Node (no rg/grep binary needed): JavaScript regular expressions over the
 * files `listFiles` yields (gitignore-aware), binary files skipped, large files streamed. The
 * regex runs in a worker thread with a per-line deadline (regex-search.ts), so no pattern can
 * block the event loop. Output is bounded three ways: the match limit, 500 characters per line,
 * and 50 KiB in total.
 */
import { z } from "zod";
import { defineTool, type ToolResult } from "../../kernel/index.js";
import { DEFAULT_MAX_BYTES, formatSize } from "../../lib/truncate/index.js";
import { DEFAULT_GREP_LIMIT as DEFAULT_LIMIT, MAX_LINE_CHARS } from "./grep-limits.js";
import { LINE_DEADLINE_MS } from "./regex-protocol.js";
import { RegexWorkers } from "./regex-search.js";
import type { GuardSource } from "./sandboxed.js";

const GrepParams = () =>
  z.object({
    pattern: z.string().min(1).describe("Regular expression (JavaScript syntax) to search for; with literal=true, a plain string."),
    path: z.string().optional().describe("Directory or file to search, relative to the working directory or absolute. Defaults to the working directory."),
    glob: z.string().optional().describe("Only search files matching this glob, e.g. '*.ts' (any depth) or 'src/**/*.{js,ts}'."),
    ignoreCase: z.boolean().optional().describe("Match case-insensitively. Defaults to false."),
    literal: z.boolean().optional().describe("Treat the pattern as a literal string instead of a regular expression. Defaults to false."),
    context: z.number().int().min(0).optional().describe("Number of lines of context to show before and after each match. Defaults to 0."),
    limit: z.number().int().min(1).optional().describe(`Maximum number of matches to return. Defaults to ${DEFAULT_LIMIT}.`),
  });

/**
 * The grep tool; `workers` keeps its regex worker between calls (close it at shutdown). `guard`:
 * the sandbox's, which keeps denied folders out of the walk and is asked before a symlinked file is read.
 */
export function createGrepTool(workers = new RegexWorkers(), guard: GuardSource = () => undefined) {
  return defineTool({
    name: "grep",
    description:
      "Search file contents for a regular expression (or a literal string) and return matching lines as " +
      "`path:line: text`, with context lines as `path-line- text`. Searches recursively from `path` (default: " +
      "the working directory), respects .gitignore, skips .git, node_modules and binary files, and can be narrowed " +
      `with a glob. Returns at most \`limit\` matches (default ${DEFAULT_LIMIT}) and ${formatSize(DEFAULT_MAX_BYTES)} of output; ` +
      `lines longer than ${MAX_LINE_CHARS} characters are cut. A pattern that runs over ${LINE_DEADLINE_MS / 1000} seconds ` +
      "on one line is stopped with an error. Prefer it over bash grep for code search.",
    parameters: GrepParams,
    async execute(args, ctx): Promise<ToolResult> {
      // The search itself loads on the first call (grep-search.ts).
      const { runGrep } = await import("./grep-search.js");
      return runGrep(workers, guard, args, ctx);
    },
  });
}
