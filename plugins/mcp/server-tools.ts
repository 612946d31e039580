/**
 * How a server's tool list becomes agent tools: named (what it no longer offers withdrawn), each
 * registered as its exposure says (skipped when nothing it was built from changed, since a flood
 * re-lists thousands), and which direct ones are past the caps of `mcp.directTools`. The caps are
 * shared by every server, so they are recomputed over all of them. manager.ts decides when
 * servers come, go and connect; this is what becomes of the tools they list.
 */
import type { Logger } from "../../kernel/index.js";
import { namespaceOf, toolExposureOf } from "./config.js";
import { allocateDirect, capNote, offeredChars, type DirectCaps } from "./direct-cap.js";
import { MAX_LISTED_TOOLS } from "./requests.js";
import { effectiveExposure, type ManagedServer } from "./status.js";
import { mcpToolDefinition, type CallTool } from "./tool-definition.js";
import type { AgentTools } from "./tool-registry.js";

export class ServerTools {
  readonly #tools: AgentTools;
  readonly #caps: DirectCaps;
  readonly #log: Logger;
  readonly #callTool: CallTool;
  /** What each registered tool was built from: registering it again the same way is skipped. */
  readonly #registeredFrom = new Map<string, { tool: object; reach: "direct" | "indirect"; loaded: boolean; about: string | undefined }>();

  constructor(tools: AgentTools, caps: DirectCaps, log: Logger, callTool: CallTool) {
    this.#tools = tools;
    this.#caps = caps;
    this.#log = log;
    this.#callTool = callTool;
  }

  /** Names the server's tools (withdrawing what it no longer offers), then registers them as their exposure says. */
  sync(server: ManagedServer, servers: ReadonlyMap<string, ManagedServer>): void {
    const connection = server.connection;
    if (!connection) return;
    const offered = connection.tools;
    const names = this.#tools.namesFor(
      server.entry.name,
      offered.map((tool) => tool.name),
    );
    const kept = new Set(names.values());
    const gone = [...server.names.values()].filter((agentName) => !kept.has(agentName));
    this.#tools.release(gone);
    for (const tool of server.loaded) if (!names.has(tool)) server.loaded.delete(tool);
    server.names = names;
    if (connection.toolsCut && !server.noted.has("listCut")) {
      server.noted.add("listCut");
      this.#log.warn(`mcp: server "${server.entry.name}" lists more than ${MAX_LISTED_TOOLS} tools: only the first ${MAX_LISTED_TOOLS} are kept`);
    }
    // The caps are shared: this server's list may move other servers' tools across them.
    const changed = this.recap(servers);
    changed.add(server);
    for (const each of changed) this.register(each);
  }

  register(server: ManagedServer): void {
    const connection = server.connection;
    if (!connection) return;
    const { name, config } = server.entry;
    const about = config.description?.trim() || connection.instructions?.trim().split("\n", 1)[0];
    // One namespace object for all of a server's tools (a flood registers thousands).
    const namespace = {
      name: `mcp__${namespaceOf(name)}`,
      aliases: [name],
      ...(about ? { description: about } : {}),
      ...(connection.instructions ? { instructions: connection.instructions } : {}),
    };
    for (const tool of connection.tools) {
      const agentName = server.names.get(tool.name);
      if (agentName === undefined) continue;
      const exposure = effectiveExposure(server, tool.name);
      if (exposure === "hidden") {
        this.#tools.unregister(agentName);
        continue;
      }
      const source = {
        server: name,
        tool: tool.name,
        ...(tool.description ? { description: tool.description } : {}),
        ...(tool.title ? { title: tool.title } : {}),
        inputSchema: tool.inputSchema as Record<string, unknown>,
      };
      const reach = exposure === "direct" ? "direct" : "indirect";
      const loaded = server.loaded.has(tool.name);
      const registered = this.#registeredFrom.get(agentName);
      // A flood's re-listing (or a tool_search load) re-registers only what changed.
      if (this.#tools.isRegistered(agentName) && registered?.tool === tool && registered.reach === reach && registered.loaded === loaded && registered.about === about) continue;
      this.#tools.register(
        mcpToolDefinition(agentName, source, this.#callTool, {
          namespace,
          reach,
          loaded,
          descriptionChars: this.#caps.descriptionChars,
        }),
      );
      this.#registeredFrom.set(agentName, { tool, reach, loaded, about });
    }
  }

  /** Recomputes which direct tools are past the caps; returns the servers whose set changed. Tells the user once per server. */
  recap(servers: ReadonlyMap<string, ManagedServer>): Set<ManagedServer> {
    const caps = this.#caps;
    const listed = [...servers.values()].filter((server) => server.entry.config.enabled && server.connection);
    const allocation = allocateDirect(
      listed.map((server) => ({
        name: server.entry.name,
        tools: server
          .connection!.tools.filter((tool) => toolExposureOf(server.entry.config, tool.name) === "direct")
          .map((tool) => ({ name: tool.name, chars: offeredChars(tool, caps.descriptionChars) })),
      })),
      caps,
    );
    const changed = new Set<ManagedServer>();
    for (const server of servers.values()) {
      const cap = allocation.get(server.entry.name);
      const next = cap?.capped ?? new Set<string>();
      if (next.size !== server.capped.size || [...next].some((tool) => !server.capped.has(tool))) changed.add(server);
      server.capped = next;
      if (cap?.setting && next.size > 0 && !server.noted.has("capped")) {
        server.noted.add("capped");
        const direct = server.connection!.tools.filter((tool) => toolExposureOf(server.entry.config, tool.name) === "direct").length;
        this.#log.warn(capNote(server.entry.name, direct, next.size, cap.setting, caps));
      }
    }
    return changed;
  }
}
