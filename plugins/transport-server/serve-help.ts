/**
 * `atomic serve --help`: the server's own flags and its `serve` settings with their defaults
 * (read from settings.ts, so the text cannot drift from what the server does). Loaded by the CLI
 * only when asked for.
 */
import { DEFAULT_KEEPALIVE_MS, DEFAULT_LIMITS } from "./settings.js";

const MIB = 1024 * 1024;

function settingsTable(): string {
  const { maxAgents, maxConnections, idleUnloadMs, replayRecords, replayBytes, outboundBytes } = DEFAULT_LIMITS;
  const rows: [string, string, string][] = [
    ["listen", "listener URLs, as --listen (which replaces it)", '["stdio"]'],
    ["maxAgents", "agents loaded at once (past it: limit_reached)", `${maxAgents}`],
    ["maxConnections", "connections at once", `${maxConnections}`],
    ["idleUnloadMs", "an agent with no client, run or dialog is unloaded after", `${idleUnloadMs} (${idleUnloadMs / 60_000} min)`],
    ["replayRecords", "events each agent keeps for attach's replay", `${replayRecords}`],
    ["replayBytes", "bytes of events each agent keeps for replay", `${replayBytes} (${replayBytes / MIB} MiB)`],
    ["outboundBytes", "bytes waiting for a client before it is a slow one", `${outboundBytes} (${outboundBytes / MIB} MiB)`],
    ["allowOrigins", "browser origins (https://host[:port]) a ws:// listener accepts besides its own", "[]"],
    ["keepaliveMs", "a ws:// listener pings each client this often", `${DEFAULT_KEEPALIVE_MS} (${DEFAULT_KEEPALIVE_MS / 1000} s)`],
  ];
  return rows.map(([key, meaning, value]) => `  ${key.padEnd(16)}${meaning.padEnd(58)}default ${value}`).join("\n");
}

export function serveHelp(): string {
  return `Usage: atomic serve [--listen URL]... [options]

Many agents (sessions) for many clients in one process (docs/server.md). It runs until SIGTERM,
SIGINT, a client's server_shutdown, or the end of stdin when stdio listens; then every agent's
own teardown (closing events, bash cancelled, sessions flushed), exit 0 (143, 130 on a signal).

Options:
  --listen <url>    stdio, unix:PATH (unix: alone: <agent dir>/serve/serve.sock) or
                    ws://HOST:PORT (port 0 picks a free one); repeatable (default: the setting
                    serve.listen, else stdio). Each socket prints {"listening":URL} on stderr
  --web             serve the web page on the ws:// listener and print its URL (the token in
                    the fragment) on stderr
  --allow-remote    let a ws:// listener bind an address that is not loopback and answer any
                    Host (the token is still required; put TLS in front)
  --help, -h        this help

The options of atomic --mode rpc (--provider, --model, --thinking, --sandbox, -e, --tools, ...;
atomic --help) are every agent's defaults; agent_open chooses per agent.

Settings (key "serve" of settings.json; a project's only when trusted):
${settingsTable()}
The setting eventOptions is what each connection starts with (docs/configuration.md).

Clients: atomic --mode rpc --connect unix:PATH (one agent as plain --mode rpc; see its --help),
connect() from atomic-agent/client, docs/examples/atomic_client.py, the page of --web.

Examples:
  atomic serve --listen unix:                           the default socket
  atomic serve --listen unix: --listen stdio --model anthropic/claude-sonnet-4-5
  atomic serve --listen ws://127.0.0.1:0 --web          a browser's page, on a free port
`;
}
