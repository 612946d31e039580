/**
 * `atomic serve`: the listeners started, the registry restored, connections served until
 * shutdown (SIGTERM, SIGINT, `server_shutdown`, the end of stdin when stdio listens), which goes
 * in the order docs/server.md gives: `server_shutting_down` to every connection, each agent's own
 * teardown (closing events, bash cancelled, sessions flushed), the registry written, the
 * connections flushed and closed, the socket removed. The exit code (0, or 143/130 after a
 * signal) is the CLI's.
 */
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Response, ShutdownReason, TransportHost } from "../../kernel/index.js";
import { claimStdout } from "../../lib/stdout/index.js";
import { AgentPool } from "./agents.js";
import type { Listener } from "./listener.js";
import { listenersFor } from "./listen-url.js";
import { RegistryFile } from "./registry-file.js";
import { Server, type ServerParts, type ShutdownCause } from "./server.js";
import { serverConfig } from "./settings.js";

export async function serveServer(host: TransportHost, installDir: string | undefined, commands: ServerParts["commands"]): Promise<number> {
  const { agentDir, cwd, env, settings, cli } = host.config;
  const config = serverConfig(settings, cli.listen);
  const ws = { agentDir, allowRemote: cli.allowRemote === true, allowOrigins: config.allowOrigins, keepaliveMs: config.keepaliveMs, web: cli.web === true, installDir };
  const listeners = listenersFor(config.listen, { agentDir, cwd, env, ws });
  const registry = new RegistryFile(agentDir, host.log);
  const pool = new AgentPool({
    cwd,
    env,
    limits: config.limits,
    log: host.log,
    registry,
    openSibling: (options) => host.openSibling(options),
    listSessions: () => listSessions(host),
  });
  await pool.restore();
  let requested!: (cause: ShutdownCause) => void;
  const shutdownRequested = new Promise<ShutdownCause>((resolve) => (requested = resolve));
  const server = new Server({
    host,
    version: await versionOf(installDir),
    epoch: randomUUID(),
    config,
    // Read when asked: a ws listener on port 0 knows its port once it listens.
    get listenerUrls() {
      return listeners.map((listener) => listener.url);
    },
    pool,
    commands,
    requestShutdown: (cause) => requested(cause),
  });
  await startAll(listeners, server);

  const cause = await Promise.race([shutdownRequested, host.closing.then(causeOf)]);
  server.beginShutdown(cause);
  // Records already read are answered (or refused as shutting_down), then every agent's teardown.
  await Promise.all([...server.connections].map((connection) => connection.dispatched()));
  await pool.unloadAll(reasonOf(cause));
  await Promise.all([...server.connections].map((connection) => connection.close("shutdown")));
  await Promise.all(listeners.map((listener) => listener.close()));
  await host.shutdown(reasonOf(cause));
  await claimStdout().flush();
  return 0;
}

/** Sockets first: a start that fails (already running) never took the stdio client. */
async function startAll(listeners: readonly Listener[], server: Server): Promise<void> {
  const ordered = [...listeners.filter((listener) => listener.url !== "stdio"), ...listeners.filter((listener) => listener.url === "stdio")];
  const started: Listener[] = [];
  try {
    for (const listener of ordered) {
      await listener.start((wire) => server.accept(wire), server);
      started.push(listener);
      if (listener.url !== "stdio") process.stderr.write(`${JSON.stringify({ listening: listener.url })}\n`);
    }
  } catch (error) {
    await Promise.all(started.map((listener) => listener.close()));
    throw error;
  }
}

function causeOf(reason: ShutdownReason): ShutdownCause {
  return reason === "signal" ? "signal" : reason === "eof" ? "eof" : "request";
}

function reasonOf(cause: ShutdownCause): ShutdownReason {
  return cause === "request" ? "exit" : cause;
}

async function listSessions(host: TransportHost): Promise<{ id: string; path: string }[]> {
  const response = await new Promise<Response>((resolve) => void host.submit({ type: "list_sessions", all: true }, { source: "rpc", respond: resolve }));
  return response.success ? ((response as { data?: { sessions?: { id: string; path: string }[] } }).data?.sessions ?? []) : [];
}

async function versionOf(installDir: string | undefined): Promise<string> {
  if (!installDir) return "0.0.0";
  try {
    return (JSON.parse(await readFile(join(installDir, "package.json"), "utf8")) as { version: string }).version;
  } catch {
    return "0.0.0";
  }
}
