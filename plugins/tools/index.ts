/**
 * The `tools` plugin: the file tools the model works with (read, write, edit, grep, find, ls).
 * Each tool lives in its own module; this file only registers them. The shell tool is the
 * separate `bash` plugin.
 */
import { definePlugin, type ToolDefinition } from "../../kernel/index.js";
import { editTool } from "./edit.js";
import { findTool } from "./find.js";
import { createGrepTool } from "./grep.js";
import { lsTool } from "./ls.js";
import { readTool } from "./read.js";
import { RegexWorkers } from "./regex-search.js";
import { writeTool } from "./write.js";

export { createGrepTool, editTool, findTool, lsTool, readTool, writeTool };

/** The file tools, in the order the model is told about them; grep keeps its regex worker in `workers`. */
export function fileTools(workers: RegexWorkers): ToolDefinition<any>[] {
  return [readTool, editTool, writeTool, createGrepTool(workers), findTool, lsTool];
}

export default definePlugin({
  name: "tools",
  description: "File tools for the model: read, edit, write, grep, find, ls.",
  apply(k) {
    const workers = new RegexWorkers();
    for (const tool of fileTools(workers)) k.registerTool(tool);
    k.hooks.shutdown.tapPromise(k.name, () => workers.close());
  },
});
