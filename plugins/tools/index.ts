/**
 * The `tools` plugin: the file tools the model works with (read, write, edit, grep, find, ls).
 * Each tool lives in its own module; this file only registers them. The shell tool is the
 * separate `bash` plugin.
 */
import { definePlugin, STAGE, type ToolDefinition } from "../../kernel/index.js";
import { activeToolsFromCli, toolFlags } from "./active-tools.js";
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
  description: "File tools for the model: read, edit, write, grep, find, ls; --tools/--no-tools choose what the model is offered.",
  flags: toolFlags,
  apply(k) {
    for (const tool of fileTools) k.registerTool(tool);
    // At boot every plugin (bash too) has registered its tools, so every name can be checked.
    k.hooks.boot.tap({ name: k.name, stage: STAGE.LAST }, () => {
      const active = activeToolsFromCli(k.config.cli, k.tools.names());
      if (active) k.setActiveTools(active);
    });
  },
});
