/**
 * The `tools` plugin: the file tools the model works with (read, write, edit, grep, find, ls),
 * and which registered tools the model is offered (active-tools.ts). Each tool lives in its own
 * module; this file only registers them. The shell tool is the separate `bash` plugin.
 */
import { z } from "zod";
import { definePlugin, defineSetting, type ToolDefinition } from "../../kernel/index.js";
import { piDefaultTools, toolFlags, toolSelection } from "./active-tools.js";
import { editTool } from "./edit.js";
import { TOOL_JSON_SCHEMAS } from "./json-schemas.generated.js";
import { createFindTool, findTool } from "./find.js";
import { createGrepTool } from "./grep.js";
import { lsTool } from "./ls.js";
import { readTool } from "./read.js";
import { RegexWorkers } from "./regex-search.js";
import { writeTool } from "./write.js";
import { withPathGuard, type GuardSource } from "./sandboxed.js";
import type {} from "../mcp/api.js";
import type {} from "../sandbox/api.js";

export { createGrepTool, editTool, findTool, lsTool, readTool, writeTool };

/**
 * The file tools, in the order the model is told about them; grep takes its regex workers from
 * `workers`. Each carries its JSON Schema, generated ahead (json-schemas.generated.ts). `guard`:
 * the sandbox's file guard at each call (sandboxed.ts), none by default.
 */
export function fileTools(workers: RegexWorkers, guard: GuardSource = () => undefined): ToolDefinition<any>[] {
  return [readTool, editTool, writeTool, createGrepTool(workers, guard), createFindTool(guard), lsTool].map((tool) => ({
    ...withPathGuard(tool, guard),
    precomputedJsonSchema: TOOL_JSON_SCHEMAS[tool.name],
    // pi 1.x offers read, bash, edit and write by default; the search tools when asked for.
    ...(SEARCH_TOOLS.has(tool.name) ? { defaultActive: false } : {}),
  }));
}

/** Registered inactive: named in --tools or the `tools` setting to be offered. */
const SEARCH_TOOLS: ReadonlySet<string> = new Set(["grep", "find", "ls"]);

export default definePlugin({
  name: "tools",
  description:
    "File tools for the model: read, edit, write (offered by default), grep, find, ls (when named); --tools, the tools setting and friends choose what the model is offered.",
  flags: toolFlags,
  settings: {
    tools: defineSetting(() => z.array(z.string()), {
      description:
        "The tools offered at startup: names (or * patterns) choose the built-in ones (default read, bash, edit, write; grep, find, ls when named), +name/-name entries change the defaults. --tools overrides it.",
    }),
    defaultTools: defineSetting(() => z.array(z.string()), {
      description:
        "pi's name for the tools setting, read when tools is not set: a project list of only +name/-name entries changes the user's list, and in one list +name/-name apply to the plain names in order.",
    }),
  },
  apply(k) {
    // One pool for every agent of the process; the last agent to go stops its workers.
    const workers = k.shared.acquire(
      "tools.regex-workers",
      () => new RegexWorkers(),
      (pool) => pool.close(),
    ).value;
    // Asked at each call, so the sandbox plugin may apply before or after this one.
    for (const tool of fileTools(workers, () => k.maybeService("sandbox")?.files)) k.registerTool(tool);
    // In the configure phase every plugin (bash too) and extension has registered its tools, so
    // every name can be checked.
    k.hooks.boot_configure.tap(k.name, () => {
      const { settings, settingsLayers } = k.config;
      const layered = settings.defaultTools === undefined ? undefined : piDefaultTools({ user: settingsLayers?.user.defaultTools, project: settingsLayers?.project.defaultTools });
      const setting = settings.tools ?? layered ?? piDefaultTools({ user: settings.defaultTools });
      // MCP's tool_search is registered once the servers are known, after boot; pi's always exists.
      const registered = [...new Set([...k.tools.names(), ...(k.maybeService("mcp")?.lateTools() ?? [])])];
      const selection = toolSelection({ cli: k.config.cli, setting, registered, warn: (message) => k.log.warn(message) });
      if (selection) k.setActiveTools(selection);
    });
  },
});
