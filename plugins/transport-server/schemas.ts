/**
 * The server's own records (docs/decisions.md, Server mode): its commands, their responses and
 * its events, one zod schema each, so `atomic schema` and docs/protocol.md include them. Agents'
 * records keep their own schemas; the server adds the `agent` (and, on events, `seq`) envelope.
 */
import { z } from "zod";
import { NO_DATA } from "../../kernel/index.js";
import { sandboxOptionSchema } from "../sandbox/api.js";

export const PROTOCOL_VERSION = 1;

/** The `code` of a failure the server itself answers (the seed's `error` text stays). */
export const SERVER_ERROR_CODES = [
  "unknown_agent",
  "missing_agent",
  "session_in_use",
  "limit_reached",
  "server_overloaded",
  "unauthorized",
  "not_attached",
  "shutting_down",
  "invalid_request",
] as const;
export type ServerErrorCode = (typeof SERVER_ERROR_CODES)[number];

const handle = () => z.string().meta({ description: 'The server\'s name for an agent: "a_" and 10 base32 characters, stable across restarts.' });
const epoch = () => z.string().meta({ description: "The server run's id (a uuid drawn at start): sequence numbers count within it." });
const seq = () => z.number().int().nonnegative().meta({ description: "The agent's last event sequence number (0: none yet)." });
const role = () =>
  z.enum(["control", "observe"]).meta({ description: '"control" (default): may send any command and answer dialogs; "observe": only `get_*` and `list_sessions`.' });

// Commands ------------------------------------------------------------------

export const ServerInfoInput = () => z.object({}).meta({ description: "The server's identity, limits and counts." });
export const ServerInfoOutput = () =>
  z.object({
    protocol: z.literal(PROTOCOL_VERSION).meta({ description: "The server protocol's version." }),
    version: z.string().meta({ description: "Atomic's version." }),
    pid: z.number().int().meta({ description: "The server's process id." }),
    epoch: epoch(),
    listeners: z.array(z.string()).meta({ description: "The URLs it listens on." }),
    limits: z
      .object({
        maxAgents: z.number().int().meta({ description: "Agents loaded at once." }),
        maxConnections: z.number().int().meta({ description: "Connections at once." }),
        idleUnloadMs: z.number().int().meta({ description: "Idle time before an agent is unloaded." }),
        replayRecords: z.number().int().meta({ description: "Events kept per agent for replay." }),
        replayBytes: z.number().int().meta({ description: "Bytes of events kept per agent." }),
        outboundBytes: z.number().int().meta({ description: "Bytes waiting for one connection before it is a slow consumer." }),
      })
      .meta({ description: "The limits in force (settings `serve`)." }),
    counts: z
      .object({
        agents: z.number().int().meta({ description: "Agents known (loaded or not)." }),
        loaded: z.number().int().meta({ description: "Agents loaded." }),
        connections: z.number().int().meta({ description: "Open connections." }),
      })
      .meta({ description: "What the server holds now." }),
  });

export const AgentOpenInput = () =>
  z
    .object({
      cwd: z.string().optional().meta({ description: "The agent's working folder, an absolute path (default: the server's)." }),
      resume: z.string().optional().meta({ description: "A stored session to open: its id (or a unique id prefix) or its file path." }),
      noSession: z.boolean().optional().meta({ description: "In memory only (nothing written; the agent is not kept across a restart)." }),
      provider: z.string().optional().meta({ description: "As --provider." }),
      model: z.string().optional().meta({ description: "As --model (`provider/id`, optional `:<thinking>`)." }),
      thinkingLevel: z.string().optional().meta({ description: "As --thinking." }),
      name: z.string().optional().meta({ description: "The session's display name, as --name (`agent_list` shows it)." }),
      sandbox: sandboxOptionSchema().optional().meta({
        description: 'This agent\'s sandbox: a mode ("off", "read-only", "workspace-write") or a `sandbox` setting, over the settings files\' (a project may only tighten it).',
      }),
    })
    .meta({
      description: "Opens an agent (a session) and attaches the opener as a control connection.",
      examples: [{ cwd: "/home/ada/project", model: "anthropic/claude-sonnet-4-5" }],
    });
export const AgentOpenOutput = () =>
  z.object({
    agent: handle(),
    sessionId: z.string().meta({ description: "The session's own id." }),
    sessionFile: z.string().optional().meta({ description: "The session file (absent in memory)." }),
    cwd: z.string().meta({ description: "The agent's working folder." }),
    epoch: epoch(),
    seq: seq(),
  });

/** The agent a server command acts on: named, else the connection's only attached agent (as for an agent's own commands). */
const agentOrOnlyAttached = () =>
  z.string().optional().meta({ description: "The agent's handle (`\"a_\"` and 10 base32 characters); omitted: the connection's only attached agent." });

export const AgentCloseInput = () =>
  z
    .object({ agent: agentOrOnlyAttached() })
    .meta({ description: "Closes an agent: aborts its run (with the closing events), cancels its bash commands, flushes, forgets it.", examples: [{ agent: "a_k3v9q2m7xw" }] });
export const AgentRefOutput = () => z.object({ agent: handle() });

export const AgentListInput = () => z.object({}).meta({ description: "Every agent the server knows, loaded or not." });
export const AgentListOutput = () =>
  z.object({
    agents: z
      .array(
        z.object({
          agent: handle(),
          name: z.string().optional().meta({ description: "Its session's display name." }),
          cwd: z.string().meta({ description: "Its working folder." }),
          sessionId: z.string().meta({ description: "Its session's id." }),
          sessionFile: z.string().optional().meta({ description: "Its session file (absent in memory)." }),
          status: z.enum(["idle", "running", "notLoaded"]).meta({ description: '"running": a run is in progress; "notLoaded": it loads on first use.' }),
          attached: z.number().int().meta({ description: "Connections attached to it now." }),
          seq: seq(),
        }),
      )
      .meta({ description: "Every agent the server knows, in the order they were opened." }),
  });

export const AttachInput = () =>
  z
    .object({
      agent: handle(),
      after: z.number().int().nonnegative().optional().meta({ description: "Replay the events with a greater `seq` first (omit: live events only)." }),
      epoch: z.string().optional().meta({ description: "The epoch `after` counts in (default: this server's)." }),
      role: role().optional(),
    })
    .meta({
      description: "Receive an agent's events on this connection (loads it when not loaded).",
      examples: [{ agent: "a_k3v9q2m7xw", after: 41, epoch: "0f8c1a52-6d1e-4c59-9a43-3f1de8b0a6e2" }],
    });
export const AttachOutput = () =>
  z.object({
    agent: handle(),
    epoch: epoch(),
    seq: seq(),
    replayed: z.number().int().nonnegative().meta({ description: "Events replayed before this response." }),
    gap: z.boolean().meta({ description: "True: the cursor is older than the ring or of another epoch; nothing was replayed (resync with get_messages / get_entries)." }),
    pendingUi: z
      .array(
        z.looseObject({
          type: z.literal("extension_ui_request"),
          id: z.string().meta({ description: "The dialog's id (answer it with extension_ui_response)." }),
          method: z.string().meta({ description: "select, confirm, input or editor." }),
        }),
      )
      .meta({ description: "Dialogs waiting for an answer, as their `extension_ui_request` records." }),
  });

export const DetachInput = () =>
  z.object({ agent: agentOrOnlyAttached() }).meta({ description: "Stop receiving an agent's events (never aborts its run).", examples: [{ agent: "a_k3v9q2m7xw" }] });

export const ServerShutdownInput = () => z.object({}).meta({ description: "Shuts the server down as SIGTERM does, exit code 0." });

// Events --------------------------------------------------------------------

export const ServerHelloEvent = () =>
  z
    .object({
      protocol: z.literal(PROTOCOL_VERSION).meta({ description: "The server protocol's version." }),
      version: z.string().meta({ description: "Atomic's version." }),
      epoch: epoch(),
    })
    .meta({ description: "`atomic serve`: the first record of every connection.", examples: [{ protocol: 1, version: "0.1.0", epoch: "0f8c1a52-6d1e-4c59-9a43-3f1de8b0a6e2" }] });

export const ReplayCompleteEvent = () =>
  z.object({ agent: handle(), seq: seq() }).meta({
    description: "`atomic serve`: the replay an `attach` asked for is written (also an empty one); the response and live events follow.",
    examples: [{ agent: "a_k3v9q2m7xw", seq: 57 }],
  });

export const ConnectionClosingEvent = () =>
  z
    .object({ reason: z.enum(["slow_consumer", "shutdown", "too_many_connections"]).meta({ description: "Why the server closes this connection." }) })
    .meta({ description: "`atomic serve`: the server is about to close this connection.", examples: [{ reason: "slow_consumer" }] });

export const ClientLaggedEvent = () =>
  z.object({ agents: z.array(handle()).meta({ description: "The agents it was detached from." }) }).meta({
    description: "`atomic serve`, stdio: the client fell behind by more than `outboundBytes`; it was detached from these agents (attach again with `after`).",
    examples: [{ agents: ["a_k3v9q2m7xw"] }],
  });

export const ServerShuttingDownEvent = () =>
  z
    .object({ reason: z.enum(["request", "signal", "eof"]).meta({ description: "`server_shutdown`, a signal, or the end of stdin." }) })
    .meta({ description: "`atomic serve`: the server is shutting down; each agent's closing events follow, then the connection closes.", examples: [{ reason: "signal" }] });

export const AgentClosedEvent = () =>
  z.object({ agent: handle() }).meta({
    description: "`atomic serve`: an agent this connection was attached to was closed (`agent_close`); its handle is no longer known.",
    examples: [{ agent: "a_k3v9q2m7xw" }],
  });

/** The server's commands: answered by the server, never by an agent. */
export const SERVER_COMMANDS = {
  server_info: { input: ServerInfoInput, output: ServerInfoOutput },
  agent_open: { input: AgentOpenInput, output: AgentOpenOutput },
  agent_close: { input: AgentCloseInput, output: AgentRefOutput },
  agent_list: { input: AgentListInput, output: AgentListOutput },
  attach: { input: AttachInput, output: AttachOutput },
  detach: { input: DetachInput, output: AgentRefOutput },
  server_shutdown: { input: ServerShutdownInput, output: NO_DATA },
} as const;

export type ServerCommandName = keyof typeof SERVER_COMMANDS;
