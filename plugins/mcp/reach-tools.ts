/**
 * The plugin's own tools, present only while they lead somewhere: `tool_search` while some
 * server has deferred tools (or direct ones past the caps of `mcp.directTools`), the resource
 * tools while a connected server offers resources (declared when one of those servers is direct,
 * else found through `tool_search` like its deferred tools). Also the system prompt's note naming the servers `tool_search` reaches, so
 * the model knows to search.
 */
import { exposuresOf } from "./config.js";
import { RESOURCE_TOOLS, resourceTools } from "./resources.js";
import { effectiveExposure, reachedBySearch, type ManagedServer } from "./status.js";
import { buildSearchIndex, schemaWords, TOOL_SEARCH, toolSearchTool, type SearchCandidate, type SearchIndex } from "./tool-search.js";
import type { AgentTools } from "./tool-registry.js";
import type { ToolDefinition } from "../../kernel/index.js";

export interface ReachHost {
  readonly servers: ReadonlyMap<string, ManagedServer>;
  readonly startupWaitMs: number;
  /** Changes whenever a server's tool list (or the set of servers) changes. */
  readonly toolsVersion: number;
  waitFor(which: (server: ManagedServer) => boolean, budgetMs: number, signal?: AbortSignal): Promise<void>;
  load(names: readonly string[]): string[];
  saveFullText(text: string): Promise<string>;
  wantCodemode(on: boolean): void;
}

type ResourceMode = "none" | "direct" | "deferred";

export class ReachTools {
  readonly #host: ReachHost;
  readonly #tools: AgentTools;
  #search: ToolDefinition | undefined;
  #resources: ToolDefinition[] | undefined;
  #resourceMode: ResourceMode = "none";
  #resourcesLoaded = false;
  /** The search index of the deferred tools as of a tools version (tools loaded since are filtered out at search time). */
  #index: { version: number; resourceMode: ResourceMode; index: Promise<SearchIndex> } | undefined;

  constructor(host: ReachHost, tools: AgentTools) {
    this.#host = host;
    this.#tools = tools;
  }

  sync(): void {
    const mode = this.#resourceModeNow();
    if (mode !== this.#resourceMode) {
      this.#resourceMode = mode;
      if (mode === "none") this.#resourcesLoaded = false;
    }
    const resources = mode === "direct" || (mode === "deferred" && this.#resourcesLoaded);
    for (const definition of this.#resourceDefinitions()) {
      if (!resources) this.#tools.unregister(definition.name);
      else if (!this.#tools.isRegistered(definition.name)) this.#tools.register(definition);
    }
    const search = mode === "deferred" || [...this.#enabled()].some(reachedBySearch);
    // pi offers codemode while some server's tools are reachable only from scripts.
    this.#host.wantCodemode([...this.#enabled()].some((server) => exposuresOf(server.entry.config).has("codemode")));
    if (!search) this.#tools.unregister(TOOL_SEARCH);
    else if (!this.#tools.isRegistered(TOOL_SEARCH)) this.#tools.register(this.#searchDefinition());
  }

  /** `tool_search` picked a resource tool: they load together. */
  loadResourceTool(name: string): boolean {
    if (!(RESOURCE_TOOLS as readonly string[]).includes(name) || this.#resourceMode !== "deferred") return false;
    this.#resourcesLoaded = true;
    this.sync();
    return true;
  }

  candidates(): SearchCandidate[] {
    return this.#candidates(true);
  }

  /** Ranks the candidates on an index built once per tools version. */
  async rank(query: string, limit: number): Promise<string[]> {
    const version = this.#host.toolsVersion;
    if (this.#index?.version !== version || this.#index.resourceMode !== this.#resourceMode) {
      this.#index = { version, resourceMode: this.#resourceMode, index: buildSearchIndex(this.#candidates(false)) };
    }
    const eligible = new Set(this.candidates().map((candidate) => candidate.name));
    return (await this.#index.index).rank(query, limit, (name) => eligible.has(name));
  }

  /** Deferred tools (and unloaded resource tools); `withoutLoaded: false` keeps those already loaded. */
  #candidates(withoutLoaded: boolean): SearchCandidate[] {
    const found: SearchCandidate[] = [];
    for (const server of this.#enabled()) {
      const connection = server.connection;
      if (connection?.state !== "connected") continue;
      const about = [server.entry.name, server.entry.config.description ?? "", connection.instructions ?? ""].join(" ");
      for (const tool of connection.tools) {
        const name = server.names.get(tool.name);
        const exposure = effectiveExposure(server, tool.name);
        if (!name || (withoutLoaded && server.loaded.has(tool.name)) || exposure === "direct" || exposure === "hidden") continue;
        found.push({ name, description: tool.description ?? tool.title ?? "", parameters: schemaWords(tool.inputSchema as Record<string, unknown>), server: about });
      }
    }
    if (this.#resourceMode === "deferred" && !(withoutLoaded && this.#resourcesLoaded)) {
      for (const definition of this.#resourceDefinitions())
        found.push({ name: definition.name, description: definition.description, parameters: "server uri resource", server: "mcp resources" });
    }
    return found;
  }

  promptSection(): string {
    const line = (server: ManagedServer) => {
      const about = (server.entry.config.description ?? server.connection?.instructions ?? "").trim().split("\n", 1)[0] ?? "";
      return `- ${server.entry.name}${about ? `: ${about.length > 200 ? `${about.slice(0, 197)}...` : about}` : ""}`;
    };
    const sections: string[] = [];
    const scripted = [...this.#enabled()].filter((server) => exposuresOf(server.entry.config).has("codemode")).map(line);
    if (scripted.length > 0)
      sections.push(["MCP servers whose tools codemode scripts call (find them with searchTools() or describeNamespace() in a script):", ...scripted].join("\n"));
    if (this.#tools.isRegistered(TOOL_SEARCH)) {
      const lines = [...this.#enabled()].filter(reachedBySearch).map(line);
      if (lines.length > 0 || this.#resourceMode === "deferred")
        sections.push(["MCP servers whose tools are not loaded yet; find them with tool_search (by what you need done), then call them:", ...lines].join("\n"));
    }
    return sections.join("\n\n");
  }

  *#enabled(): Iterable<ManagedServer> {
    for (const server of this.#host.servers.values()) if (server.entry.config.enabled) yield server;
  }

  #resourceModeNow(): ResourceMode {
    let mode: ResourceMode = "none";
    for (const server of this.#enabled()) {
      const exposure = server.entry.config.exposure ?? "direct";
      if (!server.connection?.hasResources || exposure === "hidden") continue;
      if (exposure === "direct") return "direct";
      mode = "deferred";
    }
    return mode;
  }

  #resourceDefinitions(): ToolDefinition[] {
    this.#resources ??= resourceTools({
      servers: () =>
        [...this.#enabled()]
          .filter((server) => server.connection?.hasResources && (server.entry.config.exposure ?? "direct") !== "hidden")
          .map((server) => ({ name: server.entry.name, connection: server.connection! })),
      ready: (signal) => this.#host.waitFor(() => true, this.#host.startupWaitMs, signal),
      saveFullText: (text) => this.#host.saveFullText(text),
    });
    return this.#resources;
  }

  #searchDefinition(): ToolDefinition {
    this.#search ??= toolSearchTool({
      ready: (signal) => this.#host.waitFor(reachedBySearch, this.#host.startupWaitMs, signal),
      candidates: () => this.candidates(),
      rank: (query, limit) => this.rank(query, limit),
      load: (names) => this.#host.load(names),
      offered: (name) => this.#tools.isOffered(name),
    });
    return this.#search;
  }
}
