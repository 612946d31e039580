/**
 * The names the model calls MCP tools by, as pi names them: `mcp__<server>__<tool>` with every
 * character but `[A-Za-z0-9_]` as `_`, at most 64 characters (what providers accept). A name
 * that is too long, that another tool already holds, or that two tools of one server would share
 * after that replacement (`a-b`, `a_b`) ends in `_` and 8 hex digits of a hash of server and tool,
 * so which tool keeps the plain name never depends on the order the server lists them.
 */
import { createHash } from "node:crypto";

export const MAX_TOOL_NAME = 64;

export function plainToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`.replace(/[^A-Za-z0-9_]/g, "_");
}

function hashedToolName(server: string, tool: string): string {
  const hash = createHash("sha256").update(`${server}\0${tool}`).digest("hex").slice(0, 8);
  return `${plainToolName(server, tool).slice(0, MAX_TOOL_NAME - hash.length - 1)}_${hash}`;
}

/**
 * Names for one server's tools. `takenByOthers(name, tool)` says whether a name belongs to
 * something other than that tool (another server's tool, a built-in, an extension's). Returns
 * server tool name -> name.
 */
export function assignToolNames(server: string, tools: readonly string[], takenByOthers: (name: string, tool: string) => boolean): Map<string, string> {
  const unique = [...new Set(tools)];
  const plainCount = new Map<string, number>();
  for (const tool of unique) {
    const plain = plainToolName(server, tool);
    plainCount.set(plain, (plainCount.get(plain) ?? 0) + 1);
  }
  const names = new Map<string, string>();
  for (const tool of unique) {
    const plain = plainToolName(server, tool);
    const clash = plain.length > MAX_TOOL_NAME || plainCount.get(plain)! > 1 || takenByOthers(plain, tool);
    names.set(tool, clash ? hashedToolName(server, tool) : plain);
  }
  return names;
}
