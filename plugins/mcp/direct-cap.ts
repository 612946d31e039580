/**
 * How much of the MCP servers' `direct` tools is offered to the model directly. Every tool
 * offered is in every request (its description and JSON Schema), so a server listing 20,000
 * tools made each request 48 MB. Past the caps (settings `mcp.directTools`), tools are reached
 * the way `deferred` ones are (tool_search), never dropped: servers in the order they are
 * configured, each server's tools in the order it lists them, each taken while it fits.
 */

export interface DirectCaps {
  /** Direct tools offered per server. */
  perServer: number;
  /** Direct MCP tools offered in all. */
  total: number;
  /** Characters of one tool's description offered (the rest is cut, with a note). */
  descriptionChars: number;
  /** Characters (description + JSON Schema) of one server's direct tools. */
  perServerChars: number;
  /** Characters (description + JSON Schema) of all direct MCP tools. */
  totalChars: number;
}

/** 100 in all leaves room under OpenAI's 128 tools per request for the built-in and extensions' tools. */
export const DEFAULT_DIRECT_CAPS: DirectCaps = { perServer: 64, total: 100, descriptionChars: 2048, perServerChars: 65_536, totalChars: 131_072 };

export type CapSetting = Exclude<keyof DirectCaps, "descriptionChars">;

export interface CapServer {
  name: string;
  /** Its direct tools in listing order, with the characters each adds to a request. */
  tools: readonly { name: string; chars: number }[];
}

export interface ServerCap {
  /** Tools past the caps (server tool names). */
  capped: Set<string>;
  /** The setting that stopped its first capped tool. */
  setting: CapSetting | undefined;
}

export function allocateDirect(servers: readonly CapServer[], caps: DirectCaps): Map<string, ServerCap> {
  const result = new Map<string, ServerCap>();
  let total = 0;
  let totalChars = 0;
  for (const server of servers) {
    const cap: ServerCap = { capped: new Set(), setting: undefined };
    let count = 0;
    let chars = 0;
    for (const tool of server.tools) {
      const over: CapSetting | undefined =
        count >= caps.perServer
          ? "perServer"
          : chars + tool.chars > caps.perServerChars
            ? "perServerChars"
            : total >= caps.total
              ? "total"
              : totalChars + tool.chars > caps.totalChars
                ? "totalChars"
                : undefined;
      if (over) {
        cap.capped.add(tool.name);
        cap.setting ??= over;
        continue;
      }
      count++;
      chars += tool.chars;
      total++;
      totalChars += tool.chars;
    }
    result.set(server.name, cap);
  }
  return result;
}

/** A description as offered directly: cut at `limit` characters, saying so. */
export function cutDescription(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}... [description cut at ${limit} characters]`;
}

const charsOf = new WeakMap<object, number>();

/** What a tool adds to every request when offered: its description as offered and its JSON Schema. */
export function offeredChars(tool: { description?: string; title?: string; inputSchema?: unknown }, descriptionChars: number): number {
  let chars = charsOf.get(tool);
  if (chars === undefined) {
    const description = tool.description?.trim() || tool.title?.trim() || "";
    chars = cutDescription(description, descriptionChars).length + JSON.stringify(tool.inputSchema ?? {}).length;
    charsOf.set(tool, chars);
  }
  return chars;
}

/** The one stderr line a server's capped tools get. */
export function capNote(server: string, direct: number, capped: number, setting: CapSetting, caps: DirectCaps): string {
  return `mcp: server "${server}" lists ${direct} tools: ${direct - capped} are offered to the model directly (mcp.directTools.${setting} is ${caps[setting]}), the other ${capped} through tool_search (raise the limits in settings mcp.directTools)`;
}
