/**
 * What the plugin keeps from boot on, before any server runs: extension and client entries, the
 * decision whether to start at all, and the bounded wait before a prompt. The manager (and with
 * it the MCP SDK) loads only when there is a server to run: an mcp.json exists, an extension
 * registered one, or a client added one. Boot never waits for any of it: the start runs shortly
 * after boot, or at once when a prompt or a command needs the servers first.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { ErrorCode, KernelError, type PluginContext } from "../../kernel/index.js";
import type { McpApi, McpStatus, RegisteredMcpServer } from "./api.js";
import { parseServerEntry, type ServerEntry } from "./config.js";
import { anyConfigFile, configFiles, loadConfig } from "./config-files.js";
import type { DirectCaps } from "./direct-cap.js";
import type { McpHooks } from "./hooks.js";
import type { McpManager } from "./manager.js";
import { saveToTempFile } from "./save-text.js";
import type { ServerLog } from "./server-log.js";

/** How long after boot the servers start on their own (bench/mcp: startup with servers is that of none). */
const START_DELAY_MS = 200;

export interface ControllerOptions {
  disabled: boolean;
  timeoutMs: number;
  connectTimeoutMs: number;
  startupWaitMs: number;
  directCaps: DirectCaps;
  hooks: McpHooks;
  /** Where stdio servers' stderr lines go. */
  serverLog: ServerLog;
}

export class McpController {
  readonly #k: PluginContext;
  readonly #options: ControllerOptions;
  readonly #extension = new Map<string, ServerEntry & { owner: string }>();
  #client: ServerEntry[] = [];
  #manager: McpManager | undefined;
  #managerLoading: Promise<McpManager> | undefined;
  #started: Promise<void> | undefined;
  #booted = false;
  #held = false;
  #closing = false;
  /** Aborts the waits in progress (an `abort`, teardown). */
  #waits = new AbortController();

  constructor(k: PluginContext, options: ControllerOptions) {
    this.#k = k;
    this.#options = options;
  }

  api(): McpApi {
    return {
      registerServer: (name, config, owner) => this.#register(name, config, owner),
      checkServer: (name, config, owner) => void this.#check(name, config, owner),
      unregisterServer: (name, owner) => this.#unregister(name, owner),
      registeredServers: () => this.#registered(),
      addClientServers: (servers) => this.#addClient(servers),
      status: () => this.status(),
      hold: () => void (this.#held = true),
      checkConfig: () => this.checkConfig(),
      // tool-search.ts's TOOL_SEARCH, not imported: that module loads with the manager.
      lateTools: () => ["tool_search"],
    };
  }

  /**
   * Boot is over: start a moment later (unless held or closing by then), once the client's first
   * commands are answered, so loading the SDK and spawning servers never delays them. Anything
   * that needs the servers sooner (a prompt, `get_mcp_servers`) starts them itself.
   */
  booted(): void {
    this.#booted = true;
    if (this.#options.disabled) return;
    setTimeout(() => {
      if (!this.#held && !this.#closing) void this.start();
    }, START_DELAY_MS).unref();
  }

  start(): Promise<void> {
    if (this.#options.disabled || this.#closing) return Promise.resolve();
    this.#started ??= (async () => {
      const present = await anyConfigFile(configFiles(this.#k.config.agentDir, this.#k.config.cwd));
      if (present || this.#extension.size > 0 || this.#client.length > 0) await this.#ensureManager();
    })().catch((error: unknown) => this.#k.log.error(`mcp: could not start: ${(error as Error).message}`));
    return this.#started;
  }

  /** Before a prompt runs: servers with direct tools still connecting get at most the startup wait. */
  async beforePrompt(): Promise<void> {
    if (this.#options.disabled) return;
    await this.start();
    await this.#manager?.beforePrompt(this.#waits.signal);
  }

  /** An `abort` (or teardown) ends the waits under way; later ones wait again. */
  abortWaits(): void {
    this.#waits.abort();
    this.#waits = new AbortController();
  }

  closing(): void {
    this.#closing = true;
    this.abortWaits();
  }

  async shutdown(): Promise<void> {
    this.#closing = true;
    const manager = this.#manager ?? (await this.#managerLoading?.catch(() => undefined));
    await manager?.close();
    await this.#options.serverLog.close();
  }

  async status(): Promise<McpStatus> {
    await this.start();
    return (await this.#manager?.status()) ?? { servers: [], errors: [] };
  }

  promptSection(): string {
    return this.#manager?.promptSection() ?? "";
  }

  #ensureManager(): Promise<McpManager> {
    this.#managerLoading ??= (async () => {
      const [{ McpManager }, { SharedConnections }, version] = await Promise.all([
        import("./manager.js"),
        import("./shared-connections.js"),
        packageVersion(this.#k.config.installDir),
      ]);
      const k = this.#k;
      // One connection per server configured alike by the agents of the process (siblings).
      const connections = k.shared.acquire(
        "mcp.connections",
        () => new SharedConnections(),
        (pool) => pool.close(),
      ).value;
      const manager = new McpManager({
        layer: k.openLayer(k.name),
        tools: k.tools,
        log: k.log,
        env: k.config.env,
        cwd: k.config.cwd,
        clientInfo: { name: "atomic", version },
        timeoutMs: this.#options.timeoutMs,
        connectTimeoutMs: this.#options.connectTimeoutMs,
        startupWaitMs: this.#options.startupWaitMs,
        directCaps: this.#options.directCaps,
        saveText: saveToTempFile,
        serverStderr: (text) => this.#options.serverLog.write(text),
        wantCodemode: (on) => k.maybeService("codemode")?.want(k.name, on),
        connections,
      });
      const loaded = await this.#loadConfig();
      if (loaded.untrustedProject) k.log.warn(untrustedNote(loaded.untrustedProject, k.config.agentDir));
      for (const problem of loaded.problems) k.log.warn(`mcp: ${problem}`);
      manager.setExtensionServers([...this.#extension.values()]);
      manager.setClientServers(this.#client);
      await manager.start(loaded.entries, loaded.errors, loaded.autoEnableCodemode ?? true);
      this.#manager = manager;
      k.maybeService("codemode")?.beforeScript(k.name, (reach, signal) => manager.waitForScript(reach, signal));
      return manager;
    })();
    return this.#managerLoading;
  }

  #loadConfig() {
    return loadConfig(configFiles(this.#k.config.agentDir, this.#k.config.cwd), this.#k.config.trusted);
  }

  /** What the servers' start would report about mcp.json, without starting them (`atomic config`). */
  async checkConfig(): Promise<{ problems: string[]; notes: string[] }> {
    // With --no-mcp nothing reads mcp.json, so a problem in it stops nothing this run.
    if (this.#options.disabled) return { problems: [], notes: ["MCP is off for this run (--no-mcp): mcp.json is not read"] };
    const loaded = await this.#loadConfig();
    const notes = loaded.untrustedProject ? [untrustedNote(loaded.untrustedProject, this.#k.config.agentDir)] : [];
    return { problems: loaded.problems.map((problem) => `mcp: ${problem}`), notes };
  }

  #check(name: string, config: unknown, owner: string) {
    const held = this.#extension.get(name);
    if (held && held.owner !== owner) throw new Error(`registerMcpServer("${name}"): the name is registered by ${held.owner}`);
    const parsed = parseServerEntry(name, config, "config");
    if (!parsed.ok) throw new Error(`registerMcpServer("${name}"): ${parsed.error}`);
    return parsed;
  }

  #register(name: string, config: unknown, owner: string): void {
    const parsed = this.#check(name, config, owner);
    this.#extension.delete(name);
    this.#extension.set(name, { name, config: parsed.config, source: "extension", origin: owner, owner, raw: { ...(config as Record<string, unknown>) } });
    this.#extensionsChanged();
  }

  #unregister(name: string, owner: string): void {
    if (this.#extension.get(name)?.owner !== owner) return;
    this.#extension.delete(name);
    this.#extensionsChanged();
  }

  #registered(): RegisteredMcpServer[] {
    return [...this.#extension.values()].map((entry) => ({ name: entry.name, config: structuredClone(entry.raw), extensionPath: entry.owner }));
  }

  #extensionsChanged(): void {
    if (this.#manager) this.#manager.setExtensionServers([...this.#extension.values()]);
    else if (this.#started && !this.#options.disabled) void this.#ensureManager().catch((error: unknown) => this.#k.log.error(`mcp: ${(error as Error).message}`));
    // Registrations made while extensions load are read at startup; later ones are announced.
    if (this.#booted && this.#options.hooks.mcp_servers_change.isUsed()) {
      void this.#options.hooks.mcp_servers_change.promise({ servers: this.#registered() });
    }
  }

  async #addClient(servers: Record<string, unknown>): Promise<string[]> {
    if (this.#options.disabled) throw new KernelError(ErrorCode.UNAVAILABLE, "MCP is off for this run (--no-mcp)");
    const entries: ServerEntry[] = [];
    const errors: string[] = [];
    for (const [name, raw] of Object.entries(servers)) {
      const parsed = parseServerEntry(name, raw, `servers.${name}`);
      if (parsed.ok) entries.push({ name, config: parsed.config, source: "client", raw: raw as Record<string, unknown> });
      else errors.push(parsed.error);
    }
    if (errors.length > 0) throw new KernelError(ErrorCode.INVALID_INPUT, errors.join("; "));
    const names = new Set(entries.map((entry) => entry.name));
    this.#client = [...this.#client.filter((entry) => !names.has(entry.name)), ...entries];
    await this.start();
    const manager = await this.#ensureManager();
    manager.setClientServers(entries);
    return entries.map((entry) => entry.name);
  }
}

function untrustedNote(file: string, agentDir: string): string {
  return `mcp: ${file} not read: the project is not trusted (start with --approve, or add the folder to trustedProjects in ${join(agentDir, "settings.json")})`;
}

async function packageVersion(installDir: string | undefined): Promise<string> {
  if (!installDir) return "0.0.0";
  try {
    return (JSON.parse(await readFile(join(installDir, "package.json"), "utf8")) as { version?: string }).version ?? "0.0.0";
  } catch {
    return "0.0.0";
  }
}
