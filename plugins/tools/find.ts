/** The `find` tool: files (and directories) matching a glob, gitignore-aware, as sorted relative paths. */
import { stat } from "node:fs/promises";
import { z } from "zod";
import { defineTool, type ToolResult } from "../../kernel/index.js";
import { fsError, optionalPath, resolveToolPath, throwIfAborted } from "./paths.js";
import { DEFAULT_MAX_BYTES, formatSize, truncateHead } from "../../lib/truncate/index.js";
import { excludedWithin, withoutExcluded, type GuardSource } from "./sandboxed.js";

const DEFAULT_LIMIT = 1000;

const FindParams = () =>
  z.object({
    pattern: z.string().min(1).describe("Glob to match, e.g. '*.ts' (matches file names at any depth), 'src/**/*.test.ts' or '**/README*'."),
    path: z.string().optional().describe("Directory to search in, relative to the working directory or absolute. Defaults to the working directory."),
    limit: z.number().int().min(1).optional().describe(`Maximum number of results. Defaults to ${DEFAULT_LIMIT}.`),
  });

/** The find tool; `guard`: the sandbox's, which keeps denied folders out of the results. */
export const createFindTool = (guard: GuardSource = () => undefined) =>
  defineTool({
    name: "find",
    description:
      "Find files by glob pattern. A pattern without '/' matches names at any depth ('*.ts'); one with '/' is " +
      "matched against the path relative to the search directory ('src/**/*.ts'). Directories that match are " +
      "listed with a trailing '/'. Respects .gitignore and skips .git and node_modules; hidden files are included. " +
      `Returns sorted relative paths, at most \`limit\` (default ${DEFAULT_LIMIT}).`,
    parameters: FindParams,
    async execute(args, ctx): Promise<ToolResult> {
      throwIfAborted(ctx.signal);
      const shownPath = optionalPath(args.path);
      const root = resolveToolPath(ctx.cwd, shownPath);
      const info = await stat(root).catch((error: unknown) => {
        throw fsError(error, shownPath, `Path not found: ${shownPath}`);
      });
      if (!info.isDirectory()) throw new Error(`Not a directory: ${shownPath}`);
      const limit = args.limit ?? DEFAULT_LIMIT;
      // The walk (and its gitignore matcher) loads on the first search, not at every start.
      const { anyDepthGlob, listFiles } = await import("./walk.js");
      const [listed, excluded] = await Promise.all([listFiles(root, [anyDepthGlob(args.pattern)], { signal: ctx.signal, includeDirectories: true }), excludedWithin(guard, root)]);
      const all = withoutExcluded(listed, excluded);
      if (all.length === 0) return { content: [{ type: "text", text: "No files found matching pattern" }], details: { count: 0 } };

      const shown = all.slice(0, limit);
      const truncation = truncateHead(shown.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
      const notices: string[] = [];
      if (all.length > limit) notices.push(`${limit} results limit reached (${all.length} total). Use limit=${limit * 2} for more, or refine the pattern.`);
      if (truncation.truncated) notices.push(`${formatSize(DEFAULT_MAX_BYTES)} output limit reached: showing ${truncation.outputLines} results.`);
      const text = truncation.content + (notices.length ? `\n\n[${notices.join(" ")}]` : "");
      return { content: [{ type: "text", text }], details: { count: all.length, limitReached: all.length > limit, truncated: truncation.truncated } };
    },
  });

export const findTool = createFindTool();
