/** The `read` tool: a window of a text file (head-truncated), or an image as an image block. */
import { stat } from "node:fs/promises";
import { openRegularForRead } from "../../lib/regular-file/index.js";
import { z } from "zod";
import { defineTool, type ToolResult } from "../../kernel/index.js";
import { fsError, resolveToolPath, throwIfAborted } from "./paths.js";
import { readLineWindow, type LineWindow } from "./read-window.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize } from "../../lib/truncate/index.js";

const SNIFF_BYTES = 8 * 1024;
/**
 * Images are attached as they are (no resizing here), and providers refuse large ones (Anthropic:
 * 5 MB of base64). One refused image would fail every later request of the conversation, so a
 * larger file is an error result instead.
 */
export const MAX_IMAGE_BYTES = Math.floor((5 * 1024 * 1024 * 3) / 4);

const ReadParams = () =>
  z.object({
    path: z.string().describe("Path of the file to read, relative to the working directory or absolute (~ expands to home)."),
    offset: z.number().int().min(1).optional().describe("1-based line number to start reading from. Defaults to 1."),
    limit: z.number().int().min(1).optional().describe("Maximum number of lines to return. Defaults to as many as fit the output limits."),
  });

export const readTool = defineTool({
  name: "read",
  description:
    `Read the contents of a file. Text files are returned as-is (no line numbers), starting at \`offset\` (1-based) ` +
    `for up to \`limit\` lines; output stops after ${DEFAULT_MAX_LINES} lines or ${formatSize(DEFAULT_MAX_BYTES)}, ` +
    `whichever comes first, and a notice at the end says which offset to use to continue. ` +
    `Images (PNG, JPEG, GIF, WebP) are returned as image attachments. Binary files are refused. ` +
    `Use offset/limit to page through large files instead of reading them whole.`,
  parameters: ReadParams,
  async execute(args, ctx): Promise<ToolResult> {
    throwIfAborted(ctx.signal);
    const absolute = resolveToolPath(ctx.cwd, args.path);
    const failed = (error: unknown): never => {
      throwIfAborted(ctx.signal);
      throw fsError(error, args.path);
    };
    const info = await stat(absolute).catch(failed);
    if (info.isDirectory()) throw new Error(`${args.path} is a directory, not a file. Use the ls tool to list it.`);
    if (!info.isFile()) throw new Error(`Cannot read ${args.path}: it is not a regular file (a device, socket or FIFO).`);

    const head = await readSniff(absolute).catch(failed);
    const mimeType = detectImageMime(head);
    if (mimeType) {
      if (info.size > MAX_IMAGE_BYTES) {
        throw new Error(
          `Cannot attach ${args.path}: the image is ${formatSize(info.size)}, over the ${formatSize(MAX_IMAGE_BYTES)} ` +
            `limit for images. Make a smaller copy first (e.g. with ImageMagick: convert in.png -resize 2000x2000 out.png).`,
        );
      }
      const data = await readWhole(absolute, ctx.signal).catch(failed);
      return {
        content: [
          { type: "text", text: `Read image file [${mimeType}]` },
          { type: "image", data: data.toString("base64"), mimeType },
        ],
      };
    }
    if (head.includes(0)) throw new Error(`Cannot read ${args.path}: it is a binary file (contains NUL bytes).`);

    const startIndex = (args.offset ?? 1) - 1;
    const window = await readLineWindow(absolute, {
      startIndex,
      limit: args.limit ?? Infinity,
      maxLines: DEFAULT_MAX_LINES,
      maxBytes: DEFAULT_MAX_BYTES,
      signal: ctx.signal,
    }).catch(failed);
    throwIfAborted(ctx.signal);
    if (window.lines.length === 0) {
      if (startIndex === 0) return { content: [{ type: "text", text: "(empty file)" }] };
      throw new Error(`Offset ${startIndex + 1} is beyond end of file (${window.totalLines ?? 0} lines total)`);
    }
    const notice = windowNotice(window, startIndex + 1, args.path);
    const text = window.lines.join("\n") + (notice ? `\n\n${notice}` : "");
    return { content: [{ type: "text", text }], details: { totalLines: window.totalLines, truncated: notice !== null } };
  },
});

/** The continuation hint appended after the text, or null when the whole rest of the file was shown. */
function windowNotice(window: LineWindow, first: number, displayPath: string): string | null {
  const last = first + window.lines.length - 1;
  const total = window.totalLines;
  if (window.partialLine) {
    // Unmeasured line (its end was too far away to scan for): whether more lines follow is unknown.
    const next = !window.moreAfter ? "" : window.partialLineBytes === null ? ` Any further lines start at offset=${last + 1}.` : ` Use offset=${last + 1} to continue.`;
    const size = window.partialLineBytes === null ? "" : ` (${formatSize(window.partialLineBytes)})`;
    return (
      `[Line ${first}${size} is over the ${formatSize(DEFAULT_MAX_BYTES)} limit: showing only its start. ` +
      `Use bash to see the rest (e.g. sed -n '${first}p' ${displayPath} | cut -c ${DEFAULT_MAX_BYTES + 1}-).${next}]`
    );
  }
  if (!window.moreAfter) return null;
  if (window.stoppedBy === "limit") {
    const remaining = total === null ? "More lines" : `${total - last} more lines`;
    return `[${remaining} in file. Use offset=${last + 1} to continue.]`;
  }
  const limitNote = window.stoppedBy === "bytes" ? ` (${formatSize(DEFAULT_MAX_BYTES)} limit)` : "";
  const of = total === null ? ` of a ${formatSize(window.fileBytes)} file` : ` of ${total}`;
  return `[Showing lines ${first}-${last}${of}${limitNote}. Use offset=${last + 1} to continue.]`;
}

/** The file's first bytes; opened non-blocking, so a path swapped for a FIFO after the stat cannot hang. */
async function readSniff(path: string): Promise<Buffer> {
  const handle = await openRegularForRead(path);
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function readWhole(path: string, signal: AbortSignal): Promise<Buffer> {
  const handle = await openRegularForRead(path);
  try {
    return await handle.readFile({ signal });
  } finally {
    await handle.close();
  }
}

/** Image type from magic bytes (file extensions lie; the bytes do not). */
export function detectImageMime(head: Buffer): string | null {
  const startsWith = (bytes: number[], at = 0) => bytes.every((byte, i) => head[at + i] === byte);
  if (startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith([0xff, 0xd8, 0xff])) return "image/jpeg";
  const ascii = head.subarray(0, 12).toString("latin1");
  if (ascii.startsWith("GIF87a") || ascii.startsWith("GIF89a")) return "image/gif";
  if (ascii.startsWith("RIFF") && ascii.slice(8, 12) === "WEBP") return "image/webp";
  return null;
}
