/** What the manager needs from its agent: registries, configuration and where output goes. */
import type { Logger, OpenLayer, ToolRegistryView } from "../../kernel/index.js";
import type { DirectCaps } from "./direct-cap.js";
import type { SharedConnections } from "./shared-connections.js";

export interface ManagerContext {
  layer: OpenLayer;
  tools: ToolRegistryView;
  log: Logger;
  env: NodeJS.ProcessEnv;
  /** The agent's working folder: stdio servers start there unless their entry says otherwise. */
  cwd: string;
  clientInfo: { name: string; version: string };
  /** A request's timeout for servers without their own `timeout`. */
  timeoutMs: number;
  /** How long starting a server and its initialize may take. */
  connectTimeoutMs: number;
  /** How long a prompt (or a search) waits for servers still connecting. */
  startupWaitMs: number;
  /** How much of the direct tools is offered directly (settings mcp.directTools). */
  directCaps: DirectCaps;
  /** The process scope's connections: a server configured alike by several agents runs once. */
  connections: SharedConnections;
  /** Where a stdio server's stderr lines go (mcp.log, and stderr with --verbose). */
  serverStderr?: (text: string) => void;
  /** Keeps the whole text of a cut result; returns its path. */
  saveText(text: string): Promise<string>;
  /** Some enabled server has tools only codemode scripts reach: codemode should be offered by default. */
  wantCodemode(on: boolean): void;
}
