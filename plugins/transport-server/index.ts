/**
 * Plugin `transport-server`: `atomic serve` (docs/server.md, docs/decisions.md Server mode). One
 * process hosts many agents, each a sibling host, for many clients over stdio and unix sockets.
 * The server's commands and events are declared here, so the protocol schema includes them; they
 * are answered by the server, and elsewhere fail saying so. Everything else loads only when
 * this mode serves; `--connect` (the bridge for old clients) never boots an agent at all. The
 * server's flags given to another mode are a usage error: there they would do nothing.
 */
import type { z } from "zod";
import { defineCommand, definePlugin, ErrorCode, KernelError, UsageError, type KernelConfig } from "../../kernel/index.js";
import type {} from "../mcp/api.js";
import { AgentClosedEvent, ClientLaggedEvent, ConnectionClosingEvent, ReplayCompleteEvent, SERVER_COMMANDS, ServerHelloEvent, ServerShuttingDownEvent } from "./schemas.js";
import { serveSetting } from "./settings.js";

export default definePlugin({
  name: "transport-server",
  description: "atomic serve: many agents for many clients over stdio, unix sockets and WebSockets.",
  settings: { serve: serveSetting },
  flags: [
    {
      name: "--listen",
      key: "listen",
      value: "<url>",
      repeatable: true,
      seeAlso: ["--port", "--host", "--bind", "--socket", "--address"],
      description: "atomic serve: listen on stdio, unix:PATH or ws://HOST:PORT (repeatable; default: settings serve.listen, else stdio).",
    },
    {
      name: "--allow-remote",
      key: "allowRemote",
      description: "atomic serve: let a ws:// listener bind an address that is not loopback and answer any Host (the token is still required; put TLS in front, docs/server.md).",
    },
    {
      name: "--web",
      key: "web",
      description: "atomic serve: serve the web page on the ws:// listener and print its URL (with the token in the fragment) on stderr.",
    },
    {
      name: "--connect",
      key: "connect",
      value: "<url>",
      description:
        "--mode rpc through a running `atomic serve` (unix:PATH): one of its agents as plain RPC on stdin/stdout. With it: --agent <handle> (attach) or --resume <id|file>, --cwd <dir>, --provider, --model, --thinking, --no-session, --name, --sandbox <mode>, and --close-on-exit (end of input closes the agent; default: it stays). atomic --mode rpc --connect unix: --help.",
    },
  ],
  apply(k) {
    refuseServeFlagsElsewhere(k.config);
    for (const [name, { input, output }] of Object.entries(SERVER_COMMANDS)) {
      k.registerCommand(
        defineCommand({
          name,
          // Read when documented (`atomic schema`, get_commands): building the schema here would
          // cost every start that never serves (~2 ms of zod on the way to the first token).
          get description() {
            return `${input().meta()?.description ?? name} (\`atomic serve\` only.)`;
          },
          input,
          output,
          run() {
            throw new KernelError(ErrorCode.UNAVAILABLE, `${name} is a command of \`atomic serve\`: this process serves one agent (docs/server.md)`);
          },
        }),
      );
    }
    k.registerEvent("server_hello", ServerHelloEvent);
    k.registerEvent("replay_complete", ReplayCompleteEvent);
    k.registerEvent("connection_closing", ConnectionClosingEvent);
    k.registerEvent("client_lagged", ClientLaggedEvent);
    k.registerEvent("server_shutting_down", ServerShuttingDownEvent);
    k.registerEvent("agent_closed", AgentClosedEvent);
    k.registerTransport({
      name: "serve",
      description: "atomic serve: many agents for many clients (stdio, unix:PATH, ws://HOST:PORT).",
      // The server's own host answers no dialogs; each agent it opens does (its clients answer them).
      dialogs: false,
      async serve(host) {
        // This host only lists sessions and hosts the agents: each agent runs its own MCP servers.
        k.maybeService("mcp")?.hold();
        const { serveServer } = await import("./serve.js");
        return serveServer(host, k.config.installDir, k.commands);
      },
    });
  },
});

/** `atomic serve`'s own flags, by key. */
const SERVE_FLAGS = [
  ["--listen", "listen"],
  ["--web", "web"],
  ["--allow-remote", "allowRemote"],
] as const;

/** Given to another mode they would do nothing, silently: a usage error, as `--connect` is one with `atomic serve`. */
function refuseServeFlagsElsewhere(config: KernelConfig): void {
  const mode = config.cli.mode || config.settings.mode || "rpc";
  if (mode === "serve") return;
  const given = SERVE_FLAGS.filter(([, key]) => config.cli[key] !== undefined).map(([flag]) => flag);
  if (given.length === 0) return;
  const named = given.length === 1 ? given[0]! : `${given.slice(0, -1).join(", ")} and ${given.at(-1)!}`;
  throw new UsageError(`${named} work${given.length === 1 ? "s" : ""} with \`atomic serve\` (got --mode ${mode}); see atomic serve --help`);
}

declare module "../../kernel/events.js" {
  interface EventMap {
    server_hello: z.output<ReturnType<typeof ServerHelloEvent>>;
    replay_complete: z.output<ReturnType<typeof ReplayCompleteEvent>>;
    connection_closing: z.output<ReturnType<typeof ConnectionClosingEvent>>;
    client_lagged: z.output<ReturnType<typeof ClientLaggedEvent>>;
    server_shutting_down: z.output<ReturnType<typeof ServerShuttingDownEvent>>;
    agent_closed: z.output<ReturnType<typeof AgentClosedEvent>>;
  }
}
