/** The `write` tool: create or overwrite a file, creating missing parent directories. */
import { stat } from "node:fs/promises";
import { FolderError, makeFolder } from "../../lib/make-folder/index.js";
import { NotRegularFileError, openRegularForWrite } from "../../lib/regular-file/index.js";
import { dirname } from "node:path";
import { z } from "zod";
import { defineTool, type ToolResult } from "../../kernel/index.js";
import { fsError, resolveToolPath, throwIfAborted } from "./paths.js";

const WriteParams = () =>
  z.object({
    path: z.string().describe("Path of the file to write, relative to the working directory or absolute (~ expands to home)."),
    content: z.string().describe("The complete new content of the file."),
  });

export const writeTool = defineTool({
  name: "write",
  description:
    "Write content to a file, replacing it entirely if it exists and creating it (and any missing parent " +
    "directories) if it does not. Use it for new files or full rewrites; prefer the edit tool for changing " +
    "part of an existing file, since write discards whatever was there before.",
  parameters: WriteParams,
  async execute(args, ctx): Promise<ToolResult> {
    throwIfAborted(ctx.signal);
    const absolute = resolveToolPath(ctx.cwd, args.path);
    await makeFolder(dirname(absolute)).catch((error: unknown) => {
      if (error instanceof FolderError && error.code === "ENOTDIR") throw new Error(`Cannot write ${args.path}: a parent path exists and is not a directory.`);
      if (error instanceof FolderError) throw new Error(`Cannot write ${args.path}: ${error.message}.`);
      throw fsError(error, args.path);
    });
    throwIfAborted(ctx.signal);
    const existing = await stat(absolute).catch(() => undefined);
    if (existing?.isDirectory()) throw new Error(`Cannot write ${args.path}: it is a directory.`);
    // A FIFO would block the write until a reader appears (forever); a device is never a file to write.
    if (existing && !existing.isFile()) throw new Error(`Cannot write ${args.path}: it is not a regular file.`);
    await writeRegular(absolute, args.content).catch((error: unknown) => {
      if (error instanceof NotRegularFileError) throw new Error(`Cannot write ${args.path}: it is not a regular file.`);
      throw fsError(error, args.path, `Cannot write ${args.path}: its directory does not exist.`);
    });
    const bytes = Buffer.byteLength(args.content, "utf8");
    return { content: [{ type: "text", text: `Successfully wrote ${bytes} bytes to ${args.path}` }] };
  },
});

/** Writes through a descriptor proven to be a regular file (the path may change after the stat). */
export async function writeRegular(path: string, content: string): Promise<void> {
  // Files the model writes are ordinary project files: the usual 0666 & ~umask, not private.
  const handle = await openRegularForWrite(path, { mode: 0o666 });
  try {
    await handle.writeFile(content, "utf8");
  } finally {
    await handle.close();
  }
}
