/**
 * Every MCP server of one agent: which entry wins for a name (a client's, then the project's or
 * user's file, then an extension's), one connection each (in the background: nothing here is
 * awaited by startup), their tools kept in step with the agent's registry (server-tools.ts), the
 * bounded waits a prompt or a search makes for servers still connecting, and the status
 * `get_mcp_servers` reports. A server that crashes, hangs or refuses only ever costs its own calls.
 */
import { unlink } from "node:fs/promises";
import type { ToolExecutionContext, ToolResult } from "../../kernel/index.js";
import type { McpStatus, McpServerStatus } from "./api.js";
import { exposuresOf, namespaceOf, type ServerEntry } from "./config.js";
import { McpConnection } from "./connection.js";
import { launchOf } from "./resolve.js";
import { connectionKey, type ConnectionListener } from "./shared-connections.js";
import { toToolResult } from "./results.js";
import { AgentTools } from "./tool-registry.js";
import { serverStatus, type ManagedServer } from "./status.js";
import type { ManagerContext } from "./manager-context.js";
import { ReachTools } from "./reach-tools.js";
import { ServerTools } from "./server-tools.js";

/** A server whose connection failed is tried again by a prompt that comes this long after. */
const RETRY_FAILED_AFTER_MS = 30_000;

export class McpManager {
  readonly #ctx: ManagerContext;
  readonly #tools: AgentTools;
  readonly #reach: ReachTools;
  readonly #serverTools: ServerTools;
  readonly #servers = new Map<string, ManagedServer>();
  #files: ServerEntry[] = [];
  #extension: ServerEntry[] = [];
  #client: ServerEntry[] = [];
  #errors: string[] = [];
  readonly #tempFiles = new Set<string>();
  #closed = false;
  #toolsVersion = 0;
  #autoEnableCodemode = true;
  /** The user was told that tools which are not declared cannot be reached. */
  #warnedUnreachable = false;

  constructor(ctx: ManagerContext) {
    this.#ctx = ctx;
    this.#tools = new AgentTools(ctx.layer, ctx.tools, ctx.log);
    this.#reach = new ReachTools(this, this.#tools);
    this.#serverTools = new ServerTools(this.#tools, ctx.directCaps, ctx.log, (server, tool, args, toolCtx) => this.callTool(server, tool, args, toolCtx));
  }

  get servers(): ReadonlyMap<string, ManagedServer> {
    return this.#servers;
  }

  get startupWaitMs(): number {
    return this.#ctx.startupWaitMs;
  }

  get toolsVersion(): number {
    return this.#toolsVersion;
  }

  get autoEnableCodemode(): boolean {
    return this.#autoEnableCodemode;
  }

  wantCodemode(on: boolean): void {
    this.#ctx.wantCodemode(on);
  }

  /** `autoEnableCodemode`: mcp.json's key of that name (default true). */
  async start(files: ServerEntry[], errors: string[], autoEnableCodemode = true): Promise<void> {
    this.#files = files;
    this.#errors = errors;
    this.#autoEnableCodemode = autoEnableCodemode;
    await this.#tools.prepare();
    this.#sync();
  }

  setExtensionServers(entries: ServerEntry[]): void {
    this.#extension = entries;
    this.#sync();
  }

  setClientServers(entries: ServerEntry[]): void {
    const names = new Set(entries.map((entry) => entry.name));
    this.#client = [...this.#client.filter((entry) => !names.has(entry.name)), ...entries];
    this.#sync();
  }

  /** Waits, at most `budgetMs` (or until `signal`), for servers `which` picks whose first connection is still under way. */
  async waitFor(which: (server: ManagedServer) => boolean, budgetMs: number, signal?: AbortSignal): Promise<void> {
    const pending = [...this.#servers.values()].filter((server) => server.connection && !server.settled && which(server));
    if (pending.length === 0 || budgetMs <= 0) return;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    await Promise.race([
      Promise.all(pending.map((server) => server.connection!.firstAttempt)),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, budgetMs);
        onAbort = resolve;
        signal?.addEventListener("abort", onAbort, { once: true });
      }),
    ]);
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  }

  /**
   * Before a prompt: servers whose last connection failed a while ago are tried again in the
   * background (their tools appear once they connect; no prompt waits for them), then the wait for
   * servers with direct tools that no earlier prompt waited for.
   */
  async beforePrompt(signal: AbortSignal): Promise<void> {
    const now = Date.now();
    for (const server of this.#servers.values()) {
      const connection = server.connection;
      if (connection?.state !== "failed" || now - (connection.failedAt ?? now) < RETRY_FAILED_AFTER_MS) continue;
      connection.client().catch(() => undefined);
    }
    await this.waitForDirect(signal);
    this.#warnIfUnreachable();
  }

  /** As pi: once, when tools that are not declared exist but neither codemode nor tool_search is offered to reach them. */
  #warnIfUnreachable(): void {
    if (this.#warnedUnreachable || !this.#reach.hasIndirectTools()) return;
    if (this.#tools.isOffered("codemode") || this.#tools.isOffered("tool_search")) return;
    this.#warnedUnreachable = true;
    const scripted = [...this.#servers.values()].some((server) => server.entry.config.enabled && exposuresOf(server.entry.config).has("codemode"));
    const reason = scripted && !this.#autoEnableCodemode ? " (autoEnableCodemode is false in mcp.json)" : "";
    this.#ctx.log.warn(
      `mcp: MCP tools are only reachable from the codemode or tool_search tool, but neither is offered${reason}; they cannot be called (add codemode or tool_search to --tools or the tools setting, or give the servers "exposure": "direct")`,
    );
  }

  /**
   * Before a codemode script: the servers still connecting whose tools it may call (every one, or
   * those whose `mcp__<server>` prefix, as a script identifier, starts a word of its source).
   */
  async waitForScript(reach: "all" | readonly string[], signal: AbortSignal): Promise<void> {
    const words = reach === "all" ? undefined : reach.filter((word) => word.startsWith("mcp__"));
    if (words?.length === 0) return;
    const named = (server: ManagedServer) => {
      if (!words) return true;
      const prefix = `mcp__${server.entry.name.replace(/[^A-Za-z0-9_$]/g, "_")}`;
      return words.some((word) => word === prefix || word.startsWith(`${prefix}__`));
    };
    await this.waitFor(named, this.#ctx.startupWaitMs, signal);
  }

  /** Servers with direct tools that no earlier prompt waited for. */
  async waitForDirect(signal: AbortSignal): Promise<void> {
    const direct = (server: ManagedServer) => !server.waited && exposuresOf(server.entry.config).has("direct");
    const waiting = [...this.#servers.values()].filter((server) => server.connection && !server.settled && direct(server));
    for (const server of waiting) server.waited = true;
    await this.waitFor((server) => waiting.includes(server), this.#ctx.startupWaitMs, signal);
  }

  async callTool(serverName: string, tool: string, args: Record<string, unknown>, ctx: ToolExecutionContext): Promise<ToolResult> {
    const server = this.#servers.get(serverName);
    if (!server?.connection) throw new Error(`MCP server "${serverName}" is ${server ? "disabled" : "not configured any more"}`);
    const result = await server.connection.callTool(tool, args, {
      signal: ctx.signal,
      onProgress: (text) => ctx.onUpdate({ content: [{ type: "text", text }], details: { server: serverName, tool } }),
    });
    return toToolResult(result, { server: serverName, tool, readableResources: server.connection.hasResources, saveFullText: (text) => this.saveFullText(text) });
  }

  async saveFullText(text: string): Promise<string> {
    const path = await this.#ctx.saveText(text);
    this.#tempFiles.add(path);
    return path;
  }

  /** Registers the deferred tools `tool_search` picked; returns the names it loaded. */
  load(names: readonly string[]): string[] {
    const loaded: string[] = [];
    const touched = new Set<ManagedServer>();
    for (const name of names) {
      if (this.#reach.loadResourceTool(name)) {
        loaded.push(name);
        continue;
      }
      const owner = this.#tools.ownerOf(name);
      const server = owner && this.#servers.get(owner.server);
      if (!owner || !server?.connection) continue;
      server.loaded.add(owner.tool);
      loaded.push(name);
      touched.add(server);
    }
    // Its tools are named already: only the loaded ones register again (the others are skipped).
    for (const server of touched) this.#serverTools.register(server);
    if (touched.size > 0) this.#reach.sync();
    return loaded;
  }

  async status(): Promise<McpStatus> {
    return { servers: [...this.#servers.values()].map((server) => serverStatus(server, this.#tools)) as McpServerStatus[], errors: [...this.#errors] };
  }

  /** The system prompt's note on servers whose tools `tool_search` finds; "" when there are none. */
  promptSection(): string {
    return this.#reach.promptSection();
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#servers.values()].map((server) => server.release?.()));
    await Promise.all([...this.#tempFiles].map((path) => unlink(path).catch(() => undefined)));
  }

  /** The entry that wins each name: client over files over extensions (names equal up to "-"/"_" are one). */
  #desired(): Map<string, ServerEntry> {
    const byNamespace = new Map<string, ServerEntry>();
    for (const entry of [...this.#extension, ...this.#files, ...this.#client]) byNamespace.set(namespaceOf(entry.name), entry);
    return new Map([...byNamespace.values()].map((entry) => [entry.name, entry]));
  }

  #sync(): void {
    if (this.#closed) return;
    this.#toolsVersion++;
    const desired = this.#desired();
    for (const [name, server] of this.#servers) {
      const next = desired.get(name);
      if (next && next.source === server.entry.source && JSON.stringify(next.config) === JSON.stringify(server.entry.config)) continue;
      this.#stop(server);
      this.#servers.delete(name);
    }
    for (const [name, entry] of desired) {
      if (this.#servers.has(name)) continue;
      const server: ManagedServer = { entry, names: new Map(), loaded: new Set(), capped: new Set(), noted: new Set(), waited: false, settled: false };
      this.#servers.set(name, server);
      if (entry.config.enabled) this.#connect(server);
    }
    // A server gone (or switched off) may leave room under the caps for another's tools.
    for (const changed of this.#serverTools.recap(this.#servers)) this.#serverTools.register(changed);
    this.#reach.sync();
  }

  #stop(server: ManagedServer): void {
    this.#tools.release(server.names.values());
    server.names.clear();
    const release = server.release;
    server.connection = undefined;
    server.release = undefined;
    void release?.();
  }

  #connect(server: ManagedServer): void {
    const { name, config } = server.entry;
    const ctx = this.#ctx;
    const current = () => this.#servers.get(name) === server && !this.#closed;
    const timeoutMs = config.timeout !== undefined ? config.timeout * 1000 : ctx.timeoutMs;
    const listener: ConnectionListener = {
      onTools: () => current() && this.#syncTools(server),
      onState: (conn) => {
        if (!current()) return;
        if (conn.state === "disconnected") ctx.log.warn(`mcp: server "${name}" disconnected: ${conn.error}; it reconnects on the next call`);
        this.#reach.sync();
      },
    };
    const key = connectionKey(name, config, ctx.env, ctx.cwd, { clientInfo: ctx.clientInfo, timeoutMs, connectTimeoutMs: ctx.connectTimeoutMs });
    const hold = ctx.connections.open(
      key,
      (events) =>
        new McpConnection(
          {
            name,
            launch: (inherited) => launchOf(name, config, ctx.env, ctx.cwd, inherited),
            clientInfo: ctx.clientInfo,
            timeoutMs,
            connectTimeoutMs: ctx.connectTimeoutMs,
            ...(ctx.serverStderr ? { writeStderr: ctx.serverStderr } : {}),
            onTools: (conn) => events.onTools(conn),
            onState: (conn) => events.onState(conn),
          },
          config.type,
        ),
      listener,
    );
    const connection = hold.connection;
    server.connection = connection;
    server.release = hold.release;
    void connection.firstAttempt.then(() => (server.settled = true));
    connection.client().catch(() => {
      if (current()) ctx.log.warn(`mcp: server "${name}" could not connect: ${connection.error}`);
    });
  }

  /** A server's tool list changed: the agent's tools follow it. */
  #syncTools(server: ManagedServer): void {
    if (!server.connection) return;
    this.#toolsVersion++;
    this.#serverTools.sync(server, this.#servers);
    this.#reach.sync();
  }
}
