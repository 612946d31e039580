/**
 * The `tools` plugin: the file tools the model works with (read, write, edit, grep, find, ls).
 * Each tool lives in its own module; this file only registers them. The shell tool is the
 * separate `bash` plugin.
 */
import { definePlugin, type ToolDefinition } from "../../kernel/index.js";
import { activeToolsFromCli, toolFlags } from "./active-tools.js";
import { editTool } from "./edit.js";
import { TOOL_JSON_SCHEMAS } from "./json-schemas.generated.js";
import { findTool } from "./find.js";
import { createGrepTool } from "./grep.js";
import { lsTool } from "./ls.js";
import { readTool } from "./read.js";
import { RegexWorkers } from "./regex-search.js";
import { writeTool } from "./write.js";

export { createGrepTool, editTool, findTool, lsTool, readTool, writeTool };

/**
 * The file tools, in the order the model is told about them; grep keeps its regex worker in
 * `workers`. Each carries its JSON Schema, generated ahead (json-schemas.generated.ts).
 */
export function fileTools(workers: RegexWorkers): ToolDefinition<any>[] {
  return [readTool, editTool, writeTool, createGrepTool(workers), findTool, lsTool].map((tool) => ({ ...tool, precomputedJsonSchema: TOOL_JSON_SCHEMAS[tool.name] }));
}

export default definePlugin({
  name: "tools",
  description: "File tools for the model: read, edit, write, grep, find, ls; --tools/--no-tools choose what the model is offered.",
  flags: toolFlags,
  apply(k) {
    const workers = new RegexWorkers();
    for (const tool of fileTools(workers)) k.registerTool(tool);
    k.hooks.shutdown.tapPromise(k.name, () => workers.close());
    // In the configure phase every plugin (bash too) and extension has registered its tools, so
    // every name can be checked.
    k.hooks.boot_configure.tap(k.name, () => {
      const active = activeToolsFromCli(k.config.cli, k.tools.names());
      if (active) k.setActiveTools(active);
    });
  },
});
