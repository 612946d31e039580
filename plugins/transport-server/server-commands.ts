/**
 * The server's own commands (docs/server.md, Server commands): validated with their schemas, answered
 * with the response envelope. `attach` writes the replay and `replay_complete` before its
 * response, and nothing else can come between them: from the ring to the response it runs in
 * one turn of the event loop, so live events follow the response.
 */
import type { z } from "zod";
import { formatValidationError } from "../../kernel/index.js";
import type { ServedAgent } from "./agent.js";
import type { Connection, Role } from "./connection.js";
import { type ServerError, serverErrors } from "./errors.js";
import { SERVER_COMMANDS, PROTOCOL_VERSION, type ServerCommandName, type AttachOutput, type AgentListOutput, type ServerInfoOutput, type AgentOpenOutput } from "./schemas.js";
import type { Server } from "./server.js";

export interface ServerCommandContext {
  server: Server;
  connection: Connection;
  /** The agent `agent` names, else the connection's only attached agent (`missing_agent` without one). */
  target(agent: string | undefined): ServedAgent;
}

type Input<N extends ServerCommandName> = z.output<ReturnType<(typeof SERVER_COMMANDS)[N]["input"]>>;

export async function runServerCommand(context: ServerCommandContext, name: ServerCommandName, record: Record<string, unknown>): Promise<unknown> {
  const parsed = (SERVER_COMMANDS[name].input() as z.ZodType).safeParse(record);
  if (!parsed.success) throw serverErrors.invalid(formatValidationError(parsed.error));
  const input = parsed.data;
  switch (name) {
    case "server_info":
      return serverInfo(context);
    case "agent_open":
      if (context.connection.observer) throw serverErrors.observerOnly(name);
      return agentOpen(context, input as Input<"agent_open">);
    case "agent_close": {
      const agent = context.target((input as Input<"agent_close">).agent);
      if (context.connection.roleFor(agent.handle) === "observe") throw withAgent(serverErrors.unauthorized(name, agent.handle), agent.handle);
      await context.server.parts.pool.close(agent);
      return { agent: agent.handle };
    }
    case "agent_list":
      return agentList(context);
    case "attach":
      return attach(context, input as Input<"attach">);
    case "detach":
      return detach(context, input as Input<"detach">);
    case "server_shutdown":
      if (context.connection.observer) throw serverErrors.observerOnly(name);
      return undefined;
  }
}

function serverInfo({ server }: ServerCommandContext): z.output<ReturnType<typeof ServerInfoOutput>> {
  const { parts } = server;
  const agents = [...parts.pool.agents.values()];
  return {
    protocol: PROTOCOL_VERSION,
    version: parts.version,
    pid: process.pid,
    epoch: parts.epoch,
    listeners: [...parts.listenerUrls],
    limits: { ...parts.config.limits },
    counts: { agents: agents.length, loaded: parts.pool.loadedCount, connections: server.connections.size },
  };
}

async function agentOpen({ server, connection }: ServerCommandContext, input: Input<"agent_open">): Promise<z.output<ReturnType<typeof AgentOpenOutput>>> {
  const agent = await server.parts.pool.open(input);
  // The opener sees what the agent said while it booted (as a --mode rpc client does), then is attached.
  const booted = agent.ring.after(0);
  if (!booted.gap) for (const entry of booted.entries) connection.sendEvent(entry);
  attachTo(connection, agent, "control");
  const { record } = agent;
  return {
    agent: agent.handle,
    sessionId: record.sessionId,
    ...(record.sessionFile ? { sessionFile: record.sessionFile } : {}),
    cwd: record.cwd,
    epoch: server.parts.epoch,
    seq: agent.seq,
  };
}

function agentList({ server }: ServerCommandContext): z.output<ReturnType<typeof AgentListOutput>> {
  return {
    agents: [...server.parts.pool.agents.values()]
      .filter((agent) => !agent.closed)
      .map((agent) => ({
        agent: agent.handle,
        ...(agent.record.name ? { name: agent.record.name } : {}),
        cwd: agent.record.cwd,
        sessionId: agent.record.sessionId,
        ...(agent.record.sessionFile ? { sessionFile: agent.record.sessionFile } : {}),
        status: agent.status,
        attached: agent.attached.size,
        seq: agent.seq,
      })),
  };
}

async function attach({ server, connection }: ServerCommandContext, input: Input<"attach">): Promise<z.output<ReturnType<typeof AttachOutput>>> {
  const { pool, epoch } = server.parts;
  const agent = pool.require(input.agent);
  const role = input.role ?? "control";
  // An observer may not promote itself: control comes from a connection that asks for it.
  if (role === "control" && connection.roleFor(agent.handle) === "observe") {
    throw withAgent(connection.attachments.has(agent.handle) ? serverErrors.observerAttach(agent.handle) : serverErrors.observerOnly("attach as control"), agent.handle);
  }
  await pool.ensureLoaded(agent);
  if (agent.closed) throw serverErrors.unknownAgent(input.agent);
  let replayed = 0;
  let gap = false;
  if (input.after !== undefined) {
    const answer = input.epoch !== undefined && input.epoch !== epoch ? ({ gap: true } as const) : agent.ring.after(input.after);
    gap = answer.gap;
    if (!answer.gap) {
      for (const entry of answer.entries) connection.sendEvent(entry);
      replayed = answer.entries.length;
      connection.sendJson(JSON.stringify({ type: "replay_complete", agent: agent.handle, seq: agent.seq }));
    }
  }
  attachTo(connection, agent, role);
  return { agent: agent.handle, epoch, seq: agent.seq, replayed, gap, pendingUi: [...agent.dialogs.values()] as z.output<ReturnType<typeof AttachOutput>>["pendingUi"] };
}

function detach({ connection, target }: ServerCommandContext, input: Input<"detach">): { agent: string } {
  const agent = target(input.agent);
  if (!connection.attachments.has(agent.handle)) throw serverErrors.notAttached(agent.handle);
  connection.attachments.delete(agent.handle);
  agent.attached.delete(connection);
  agent.touch();
  return { agent: agent.handle };
}

function attachTo(connection: Connection, agent: ServedAgent, role: Role): void {
  connection.attachments.set(agent.handle, role);
  agent.attached.set(connection, role);
  agent.touch();
}

/** The agent a refused command was for, carried by its response. */
function withAgent(error: ServerError, agent: string): ServerError {
  error.agent = agent;
  return error;
}
