/**
 * The `mcp` plugin's service (`services.get("mcp")`) and the shapes other plugins see: servers
 * registered by extensions (pi's `registerMcpServer`), servers a client hands over (ACP's
 * `session/new`), and what `get_mcp_servers` reports. The configuration format is the
 * `mcpServers` shape Claude Code, Cursor and pi read (docs/mcp.md).
 */
import type { McpHooks } from "./hooks.js";

/**
 * How the model reaches a server's tools: declared to it, called from codemode scripts (also
 * found through `tool_search`), found through `tool_search` (also callable from scripts), or not at all.
 */
export type McpExposure = "direct" | "codemode" | "deferred" | "hidden";

/** Where a server's configuration comes from, in order of precedence (a client's wins). */
export type McpServerSource = "client" | "project" | "user" | "extension";

export type McpServerState = "disabled" | "pending" | "connecting" | "connected" | "disconnected" | "failed";

/** A server an extension registered with `pi.registerMcpServer()` (pi's `RegisteredMcpServer`). */
export interface RegisteredMcpServer {
  name: string;
  /** The entry as given (an `mcpServers` value). */
  config: Record<string, unknown>;
  /** The extension that registered it. */
  extensionPath: string;
}

export interface McpToolStatus {
  /** The tool's name on its server. */
  name: string;
  /** The name the model calls it by (`mcp__<server>__<tool>`). */
  toolName: string;
  description?: string;
  /** How the model reaches it now: `deferred` for a direct tool past the caps of `mcp.directTools`. */
  exposure: McpExposure;
  /** A direct tool past the caps of `mcp.directTools`: found with `tool_search`. */
  capped?: boolean;
  /** Offered to the model: direct tools once listed, the others (capped direct ones too) once `tool_search` loaded them. */
  loaded: boolean;
}

export interface McpServerStatus {
  name: string;
  source: McpServerSource;
  /** The file it was read from (user and project servers), or the extension that registered it. */
  origin?: string;
  transport: "stdio" | "http" | "sse";
  enabled: boolean;
  state: McpServerState;
  /** Why the last connection failed or dropped. */
  error?: string;
  exposure: McpExposure;
  description?: string;
  /** The first line of the instructions the server sent when it connected. */
  instructions?: string;
  resources: boolean;
  tools: McpToolStatus[];
}

export interface McpStatus {
  servers: McpServerStatus[];
  /** Configuration problems: each names its file (or source) and key path. */
  errors: string[];
}

export interface McpApi {
  /**
   * An extension's server (pi's `registerMcpServer`): validated now (throws naming the key), connected
   * once the agent has started (at once when it already has). Registering a name again replaces the
   * same extension's entry; a name another extension holds throws. A server of the same name in
   * an `mcp.json` takes precedence.
   */
  registerServer(name: string, config: unknown, extensionPath: string): void;
  /** What `registerServer` would throw, without registering (an extension's registration is staged while it loads). */
  checkServer(name: string, config: unknown, extensionPath: string): void;
  /** Removes a server `extensionPath` registered and closes its connection (nothing for another's). */
  unregisterServer(name: string, extensionPath: string): void;
  /** Every server extensions registered, in registration order (copies). */
  registeredServers(): RegisteredMcpServer[];
  /**
   * Servers a client hands over for this process (ACP `session/new`, `add_mcp_servers`): validated
   * as a whole first (throws naming `servers.<name>.<key>`), then connected; they take precedence
   * over configured servers of the same name. Returns their names.
   */
  addClientServers(servers: Record<string, unknown>): Promise<string[]>;
  /** Every server with its state and tools, and the configuration problems found. */
  status(): Promise<McpStatus>;
  /**
   * Keeps this host from connecting on its own after boot: a host that serves no conversation
   * (the ACP connection's, whose sessions run on siblings) or only reports (`atomic config`).
   */
  hold(): void;
  /**
   * The problems of the mcp.json files (each naming its file and key path, and what became of
   * it), read now without starting a server, and a note when an untrusted project's file is not
   * read: what `atomic config` reports. With `--no-mcp` only a note that MCP is off (the files
   * are not read).
   */
  checkConfig(): Promise<{ problems: string[]; notes: string[] }>;
  /**
   * Tools this plugin registers only once its servers are known (\`tool_search\`, as pi's built-in
   * one): \`--tools\` and the tools setting may name them at boot, before they exist.
   */
  lateTools(): readonly string[];
}

export type {} from "./hooks.js";

declare module "../../kernel/services.js" {
  interface Services {
    mcp: McpApi;
  }
}

declare module "../../kernel/hooks.js" {
  interface HookCatalog extends McpHooks {}
}

/** The ranking `tool_search` uses, shared with codemode's `searchTools()`. */
export { rankTools, schemaWords, type SearchCandidate } from "./tool-search.js";
