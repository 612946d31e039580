/**
 * The `edit` tool: replace one exact, unique occurrence of a text. Matching happens on the
 * LF-normalised text without a BOM (models write `\n`), and the file is written back in its
 * original style (CRLF, BOM) so an edit never rewrites every line ending of a Windows file.
 */
import { readFile, writeFile } from "node:fs/promises";
import type { StructuredPatch } from "diff";
import { z } from "zod";
import { defineTool, type ToolResult } from "../../kernel/index.js";
import { errnoCode, resolveToolPath, throwIfAborted } from "./paths.js";

const BOM = "\uFEFF";

const EditParams = () => z.object({
  path: z.string().describe("Path of the file to edit, relative to the working directory or absolute (~ expands to home)."),
  oldText: z.string().describe("The exact text to replace, including whitespace and indentation. It must occur exactly once in the file."),
  newText: z.string().describe("The text to put in its place."),
});

export const editTool = defineTool({
  name: "edit",
  description:
    "Edit a file by replacing one exact occurrence of `oldText` with `newText`. `oldText` must match the file " +
    "character for character (whitespace and indentation included) and must be unique in the file: include " +
    "enough surrounding lines to make it so. Line endings are handled for you (CRLF files stay CRLF). " +
    "Returns a unified diff of the change. Use write to create files or replace them entirely.",
  parameters: EditParams,
  async execute(args, ctx): Promise<ToolResult> {
    throwIfAborted(ctx.signal);
    if (args.oldText === "") throw new Error("oldText must not be empty.");
    const absolute = resolveToolPath(ctx.cwd, args.path);
    const raw = await readFile(absolute, "utf8").catch((error: unknown) => {
      if (errnoCode(error) === "ENOENT") throw new Error(`File not found: ${args.path}`);
      throw error;
    });
    throwIfAborted(ctx.signal);

    const hasBom = raw.startsWith(BOM);
    const withoutBom = hasBom ? raw.slice(BOM.length) : raw;
    const crlf = withoutBom.includes("\r\n");
    const original = toLf(withoutBom);
    const oldText = toLf(args.oldText);
    const newText = toLf(args.newText);

    const occurrences = countOccurrences(original, oldText);
    if (occurrences === 0) {
      throw new Error(`Could not find the text in ${args.path}. oldText must match exactly, including whitespace and indentation.`);
    }
    if (occurrences > 1) {
      throw new Error(`Found ${occurrences} occurrences of the text in ${args.path}; oldText must be unique. Add more surrounding context.`);
    }
    const index = original.indexOf(oldText);
    // slice, not String.replace: `$&` and friends in newText must stay literal.
    const updated = original.slice(0, index) + newText + original.slice(index + oldText.length);
    if (updated === original) throw new Error(`No changes made to ${args.path}: the replacement is identical to the original text.`);

    const onDisk = (hasBom ? BOM : "") + (crlf ? updated.replace(/\n/g, "\r\n") : updated);
    throwIfAborted(ctx.signal);
    await writeFile(absolute, onDisk, "utf8");

    const { FILE_HEADERS_ONLY, formatPatch, structuredPatch } = await import("diff");
    const patch = structuredPatch(args.path, args.path, original, updated, undefined, undefined, { context: 3 });
    return {
      content: [{ type: "text", text: `Successfully replaced text in ${args.path}.` }],
      details: { diff: formatPatch(patch, FILE_HEADERS_ONLY), firstChangedLine: firstChangedLine(patch) },
    };
  },
});

function toLf(text: string): string {
  return text.replace(/\r\n/g, "\n");
}

/** Non-overlapping occurrences, the same way a left-to-right replacement would see them. */
function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) count++;
  return count;
}

/** 1-based line (in the new file) of the first added or removed line. */
function firstChangedLine(patch: StructuredPatch): number | undefined {
  const hunk = patch.hunks[0];
  if (!hunk) return undefined;
  let line = hunk.newStart;
  for (const row of hunk.lines) {
    if (row.startsWith("+") || row.startsWith("-")) return line;
    line++;
  }
  return line;
}
