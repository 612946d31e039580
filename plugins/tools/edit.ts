/**
 * The `edit` tool: replace one exact, unique occurrence of a text. Matching happens on the
 * LF-normalised text without a BOM (models write `\n`), and the file is written back in its
 * original style (CRLF, BOM) so an edit never rewrites every line ending of a Windows file.
 */
import { stat } from "node:fs/promises";
import { openRegularForRead } from "../../lib/regular-file/index.js";
import { z } from "zod";
import { defineTool, type ToolResult } from "../../kernel/index.js";
import { diffReplacement } from "./edit-diff.js";
import { findMatch } from "./edit-match.js";
import { fsError, resolveToolPath, throwIfAborted } from "./paths.js";
import { writeRegular } from "./write.js";
import { formatSize } from "../../lib/truncate/index.js";

const BOM = "\uFEFF";
/**
 * The largest file edit loads. An edit holds the file about five times over (its bytes, the
 * text, the LF copy, the result, what is written), so a 200 MB file peaked at 859 MB and took
 * 4 s; at this size, ~130 MB and 0.7 s. Larger files are changed with bash (docs/reliability.md).
 */
export const MAX_EDIT_FILE_BYTES = 32 * 1024 * 1024;

const EditParams = () =>
  z.object({
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
    const info = await stat(absolute).catch((error: unknown) => {
      throw fsError(error, args.path);
    });
    if (info.isDirectory()) throw new Error(`${args.path} is a directory, not a file.`);
    if (!info.isFile()) throw new Error(`Cannot edit ${args.path}: it is not a regular file.`);
    const bytes = await readRegular(absolute, MAX_EDIT_FILE_BYTES).catch((error: unknown) => {
      if (error instanceof TooLargeError)
        throw new Error(
          `Cannot edit ${args.path}: it is ${formatSize(error.bytes)}, over the ${formatSize(MAX_EDIT_FILE_BYTES)} the edit tool loads. ` +
            "Change it with bash (sed, or a script that streams it), or split it first.",
        );
      throw fsError(error, args.path);
    });
    throwIfAborted(ctx.signal);
    const raw = bytes.toString("utf8");
    // Writing back text decoded with U+FFFD replacements would corrupt every non-UTF-8 byte.
    if (bytes.includes(0) || Buffer.byteLength(raw, "utf8") !== bytes.length || !Buffer.from(raw, "utf8").equals(bytes)) {
      throw new Error(`Cannot edit ${args.path}: it is not UTF-8 text (binary or another encoding). Use bash to change it.`);
    }

    const hasBom = raw.startsWith(BOM);
    const withoutBom = hasBom ? raw.slice(BOM.length) : raw;
    const crlf = withoutBom.includes("\r\n");
    const original = toLf(withoutBom);
    const match = findMatch(original, toLf(args.oldText));
    let newText = toLf(args.newText);

    if (match.count === 0) {
      throw new Error(`Could not find the text in ${args.path}. oldText must match exactly, including whitespace and indentation.`);
    }
    if (match.count > 1) {
      throw new Error(`Found ${match.count} occurrences of the text in ${args.path}; oldText must be unique. Add more surrounding context.`);
    }
    // oldText ended with a newline the file lacks: keep the file without one.
    if (match.eofNewline && newText.endsWith("\n")) newText = newText.slice(0, -1);
    // slice, not String.replace: `$&` and friends in newText must stay literal.
    const updated = original.slice(0, match.start) + newText + original.slice(match.end);
    if (updated === original) throw new Error(`No changes made to ${args.path}: the replacement is identical to the original text.`);

    const onDisk = (hasBom ? BOM : "") + (crlf ? updated.replace(/\n/g, "\r\n") : updated);
    throwIfAborted(ctx.signal);
    await writeRegular(absolute, onDisk).catch((error: unknown) => {
      throw fsError(error, args.path);
    });

    const diff = await diffReplacement(args.path, original, updated, match.start, match.end);
    return {
      content: [{ type: "text", text: `Successfully replaced text in ${args.path}.` }],
      details: { ...diff, ...(match.fuzzy ? { fuzzyMatch: true } : {}) },
    };
  },
});

class TooLargeError extends Error {
  constructor(readonly bytes: number) {
    super(`${bytes} bytes`);
  }
}

/** The whole file, refused past `max` bytes before reading it (and if it grows past it while read). */
async function readRegular(path: string, max: number): Promise<Buffer> {
  const handle = await openRegularForRead(path);
  try {
    const size = (await handle.stat()).size;
    if (size > max) throw new TooLargeError(size);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      // The size as stated, plus room to notice a file that grew since.
      const buffer = Buffer.allocUnsafe(Math.min(max + 1 - total, Math.max(size - total, 0) + 64 * 1024));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, total);
      if (bytesRead === 0) break;
      chunks.push(buffer.subarray(0, bytesRead));
      total += bytesRead;
      if (total > max) throw new TooLargeError(total);
    }
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
  } finally {
    await handle.close();
  }
}

function toLf(text: string): string {
  return text.replace(/\r\n/g, "\n");
}
