/**
 * MCP connections of a process scope (a host and its sibling agents): agents whose entry for a
 * server resolves to the same launch (command, arguments, environment and folder; or URL and
 * headers), name and timeouts share one connection, so one server process serves them all. Each
 * agent keeps its own view of it (its tool names, exposure, waits and status) and is told of tool
 * lists and state changes. Reference-counted: an agent that goes (or stops using the entry) lets
 * go of its hold; the last one closes the connection.
 */
import { createHash } from "node:crypto";
import type { McpServerConfig } from "./config.js";
import type { McpConnection } from "./connection.js";
import { launchOf } from "./resolve.js";

export interface ConnectionListener {
  onTools(connection: McpConnection): void;
  onState(connection: McpConnection): void;
}

export interface ConnectionHold {
  readonly connection: McpConnection;
  /** Lets go (once); the last hold closes the connection. */
  release(): Promise<void>;
}

interface Shared {
  connection: McpConnection;
  listeners: Set<ConnectionListener>;
}

/** What makes two agents' connections one, or undefined when the entry cannot be resolved (it fails on its own). */
export function connectionKey(name: string, config: McpServerConfig, env: NodeJS.ProcessEnv, cwd: string, extra: Record<string, unknown>): string | undefined {
  let launch;
  try {
    // Every variable, as if all were passed: agents whose environments differ do not share.
    launch = launchOf(name, config, env, cwd, Object.keys(env));
  } catch {
    return undefined;
  }
  return createHash("sha256")
    .update(JSON.stringify({ name, launch, timeout: config.timeout, ...extra }))
    .digest("hex");
}

export class SharedConnections {
  readonly #shared = new Map<string, Shared>();

  /** Connections open now (tests, diagnostics). */
  get size(): number {
    return this.#shared.size;
  }

  /**
   * A hold on the connection under `key` (made by `make`, whose listener tells every holder),
   * or on a connection of its own when `key` is undefined. A holder that comes after the first
   * listing hears of the tools at once.
   */
  open(key: string | undefined, make: (listener: ConnectionListener) => McpConnection, listener: ConnectionListener): ConnectionHold {
    if (key === undefined) {
      const connection = make(listener);
      return { connection, release: once(() => connection.close()) };
    }
    let shared = this.#shared.get(key);
    if (!shared) {
      const listeners = new Set<ConnectionListener>();
      const connection = make({
        onTools: (conn) => {
          for (const each of [...listeners]) each.onTools(conn);
        },
        onState: (conn) => {
          for (const each of [...listeners]) each.onState(conn);
        },
      });
      shared = { connection, listeners };
      this.#shared.set(key, shared);
    } else if (shared.connection.state === "connected") {
      const { connection } = shared;
      queueMicrotask(() => shared!.listeners.has(listener) && listener.onTools(connection));
    }
    const entry = shared;
    entry.listeners.add(listener);
    return {
      connection: entry.connection,
      release: once(async () => {
        entry.listeners.delete(listener);
        if (entry.listeners.size > 0) return;
        if (this.#shared.get(key) === entry) this.#shared.delete(key);
        await entry.connection.close();
      }),
    };
  }

  /** Closes whatever is still open (the scope's last holder went). */
  async close(): Promise<void> {
    const open = [...this.#shared.values()];
    this.#shared.clear();
    await Promise.all(open.map((entry) => entry.connection.close()));
  }
}

function once(work: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= work());
}
