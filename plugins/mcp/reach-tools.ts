/**
 * The plugin's own tools, present only while they lead somewhere, and how the tools that are not
 * declared are reached, as pi 1.6 does it: `codemode` is switched on while an enabled server has
 * `codemode` tools (unless mcp.json's `autoEnableCodemode` is false); `tool_search` is registered
 * while a server has tools that are not declared, and offered by default while some are
 * `deferred` (or direct ones past the caps of `mcp.directTools`); the resource tools take the
 * widest exposure of the servers with resources (declared for a direct one, else callable from
 * scripts and found by `tool_search`). Also the system prompt's note naming the servers whose
 * tools are not declared, so the model knows where to look.
 */
import { exposuresOf, serverExposureOf } from "./config.js";
import { RESOURCE_TOOLS, resourceTools } from "./resources.js";
import { effectiveExposure, reachedBySearch, type ManagedServer } from "./status.js";
import { buildSearchIndex, schemaWords, TOOL_SEARCH, toolSearchTool, type SearchCandidate, type SearchIndex } from "./tool-search.js";
import type { AgentTools } from "./tool-registry.js";

/** The codemode plugin's tool (pi's name). */
const CODEMODE = "codemode";
import type { ToolDefinition } from "../../kernel/index.js";

export interface ReachHost {
  readonly servers: ReadonlyMap<string, ManagedServer>;
  readonly startupWaitMs: number;
  /** Changes whenever a server's tool list (or the set of servers) changes. */
  readonly toolsVersion: number;
  waitFor(which: (server: ManagedServer) => boolean, budgetMs: number, signal?: AbortSignal): Promise<void>;
  load(names: readonly string[]): string[];
  saveFullText(text: string): Promise<string>;
  /** mcp.json's `autoEnableCodemode` (default true). */
  readonly autoEnableCodemode: boolean;
  wantCodemode(on: boolean): void;
}

/** The resource tools' exposure: the widest among the servers with resources (pi's order: direct, codemode, deferred). */
type ResourceMode = "none" | "direct" | "codemode" | "deferred";

export class ReachTools {
  readonly #host: ReachHost;
  readonly #tools: AgentTools;
  #search: ToolDefinition | undefined;
  #resources: ToolDefinition[] | undefined;
  #resourceMode: ResourceMode = "none";
  #resourcesLoaded = false;
  /** How the resource tools are registered now (`<mode>:<loaded>`); undefined: not registered. */
  #registeredResources: string | undefined;
  /** tool_search is offered by default (some tools are deferred, configured so or past the caps), as registered last. */
  #searchWanted = false;
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
      if (mode === "none" || mode === "direct") this.#resourcesLoaded = false;
      this.#registeredResources = undefined;
    }
    // Not declared ones are registered all the same: scripts call them, tool_search declares them.
    const state = mode === "none" ? undefined : `${mode}:${this.#resourcesLoaded}`;
    if (state !== this.#registeredResources) {
      this.#registeredResources = state;
      for (const definition of this.#resourceDefinitions()) {
        if (state === undefined) this.#tools.unregister(definition.name);
        else this.#tools.register(mode === "direct" ? definition : { ...definition, exposure: "deferred", defaultActive: this.#resourcesLoaded });
      }
    }
    const enabled = [...this.#enabled()];
    const codemode = enabled.some((server) => exposuresOf(server.entry.config).has("codemode"));
    // pi switches codemode on while some server's tools are meant for scripts, and tool_search
    // while some are deferred; either reaches every tool that is not declared.
    this.#host.wantCodemode(codemode && this.#host.autoEnableCodemode);
    const wanted = mode === "deferred" || enabled.some(reachedBySearch);
    if (!wanted && !codemode && mode !== "codemode") this.#tools.unregister(TOOL_SEARCH);
    // Registered inactive for codemode tools alone: `+tool_search` (or a selection naming it) offers it.
    else if (!this.#tools.isRegistered(TOOL_SEARCH) || wanted !== this.#searchWanted) this.#tools.register({ ...this.#searchDefinition(), defaultActive: wanted });
    this.#searchWanted = wanted;
  }

  /** Whether some enabled server's tools are reached only through codemode or tool_search. */
  hasIndirectTools(): boolean {
    return [...this.#enabled()].some((server) => reachedBySearch(server) || exposuresOf(server.entry.config).has("codemode"));
  }

  /** `tool_search` picked a resource tool: they load together. */
  loadResourceTool(name: string): boolean {
    if (!(RESOURCE_TOOLS as readonly string[]).includes(name) || this.#resourceMode === "none" || this.#resourceMode === "direct") return false;
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
    if ((this.#resourceMode === "codemode" || this.#resourceMode === "deferred") && !(withoutLoaded && this.#resourcesLoaded)) {
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
    // Each server under the tool that reaches it now: codemode for its `codemode` tools while
    // codemode is offered, else tool_search (which loads any tool that is not declared).
    const codemodeOn = this.#tools.isOffered(CODEMODE);
    const searchOn = this.#tools.isOffered(TOOL_SEARCH);
    const scripted = [...this.#enabled()].filter((server) => exposuresOf(server.entry.config).has("codemode"));
    const searched = [...this.#enabled()].filter((server) => reachedBySearch(server) || (!codemodeOn && scripted.includes(server)));
    const sections: string[] = [];
    if (codemodeOn && scripted.length > 0)
      sections.push(["MCP servers whose tools codemode scripts call (find them with searchTools() or describeNamespace() in a script):", ...scripted.map(line)].join("\n"));
    if (searchOn && (searched.length > 0 || this.#resourceMode === "deferred" || (!codemodeOn && this.#resourceMode === "codemode")))
      sections.push(["MCP servers whose tools are not loaded yet; find them with tool_search (by what you need done), then call them:", ...searched.map(line)].join("\n"));
    return sections.join("\n\n");
  }

  *#enabled(): Iterable<ManagedServer> {
    for (const server of this.#host.servers.values()) if (server.entry.config.enabled) yield server;
  }

  #resourceModeNow(): ResourceMode {
    const exposures = new Set<string>();
    for (const server of this.#enabled()) if (server.connection?.hasResources) exposures.add(serverExposureOf(server.entry.config));
    return (["direct", "codemode", "deferred"] as const).find((exposure) => exposures.has(exposure)) ?? "none";
  }

  #resourceDefinitions(): ToolDefinition[] {
    this.#resources ??= resourceTools({
      servers: () =>
        [...this.#enabled()]
          .filter((server) => server.connection?.hasResources && serverExposureOf(server.entry.config) !== "hidden")
          .map((server) => ({ name: server.entry.name, connection: server.connection! })),
      ready: (signal) => this.#host.waitFor(() => true, this.#host.startupWaitMs, signal),
      saveFullText: (text) => this.#host.saveFullText(text),
    });
    return this.#resources;
  }

  #searchDefinition(): ToolDefinition {
    this.#search ??= toolSearchTool({
      ready: (signal) => this.#host.waitFor((server) => reachedBySearch(server) || exposuresOf(server.entry.config).has("codemode"), this.#host.startupWaitMs, signal),
      candidates: () => this.candidates(),
      rank: (query, limit) => this.rank(query, limit),
      load: (names) => this.#host.load(names),
      offered: (name) => this.#tools.isOffered(name),
    });
    return this.#search;
  }
}
