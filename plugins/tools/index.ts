/**
 * The `tools` plugin: the file tools the model works with (read, write, edit, grep, find, ls).
 * Each tool lives in its own module; this file only registers them. The shell tool is the
 * separate `bash` plugin.
 */
import { definePlugin, type ToolDefinition } from "../../kernel/index.js";
import { editTool } from "./edit.js";
import { findTool } from "./find.js";
import { grepTool } from "./grep.js";
import { lsTool } from "./ls.js";
import { readTool } from "./read.js";
import { writeTool } from "./write.js";

export { editTool, findTool, grepTool, lsTool, readTool, writeTool };

/** In the order the model is told about them. */
export const fileTools: ToolDefinition<any>[] = [readTool, editTool, writeTool, grepTool, findTool, lsTool];

export default definePlugin({
  name: "tools",
  description: "File tools for the model: read, edit, write, grep, find, ls.",
  apply(k) {
    for (const tool of fileTools) k.registerTool(tool);
  },
});
