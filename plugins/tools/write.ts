/** The `write` tool: create or overwrite a file, creating missing parent directories. */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";
import { defineTool, type ToolResult } from "../../kernel/index.js";
import { resolveToolPath, throwIfAborted } from "./paths.js";

const WriteParams = () => z.object({
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
    await mkdir(dirname(absolute), { recursive: true });
    throwIfAborted(ctx.signal);
    await writeFile(absolute, args.content, "utf8");
    const bytes = Buffer.byteLength(args.content, "utf8");
    return { content: [{ type: "text", text: `Successfully wrote ${bytes} bytes to ${args.path}` }] };
  },
});
