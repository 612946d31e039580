/**
 * The server: connections in, each record routed (docs/server.md, Envelope). Server commands are
 * answered here; `set_event_options` applies to the connection; `extension_ui_response` goes to
 * the agent whose dialog it answers (the first answer wins); every other command goes to an
 * agent's own scheduler, named by `agent` or the connection's only attached agent, and its
 * response comes back to the sender alone. Bad input gets a coded error and never reaches an
 * agent it does not concern; a type no command has is `Unknown command` (with the nearest name),
 * whether or not there is an agent to route it to. What a connection may send an agent is its
 * role toward it (`Connection.roleFor`).
 */
import { type Id, type KernelError, kernelErrors, type Response, type TransportHost } from "../../kernel/index.js";
import { didYouMean } from "../../lib/closest/index.js";
import { rawNumericId } from "../../lib/jsonl/index.js";
import type { ServedAgent } from "./agent.js";
import type { AgentPool } from "./agents.js";
import { Connection, type ConnectionOwner } from "./connection.js";
import { ServerError, serverErrors } from "./errors.js";
import type { Admission, Wire } from "./listener.js";
import { PROTOCOL_VERSION, SERVER_COMMANDS } from "./schemas.js";
import { runServerCommand, type ServerCommandContext } from "./server-commands.js";
import type { ServerConfig } from "./settings.js";
import { failureJson, responseJson, withEnvelope } from "./wire-format.js";

/** Commands that may move an agent to another session file, or rename it: the registry follows. */
const SESSION_CHANGING = new Set(["new_session", "switch_session", "fork", "clone", "import_session", "set_session_name"]);
/** Commands one agent may hold unanswered (from every connection) before more are refused. */
const MAX_AGENT_WAITING = 4096;

export type ShutdownCause = "request" | "signal" | "eof";

export interface ServerParts {
  host: TransportHost;
  version: string;
  epoch: string;
  config: ServerConfig;
  listenerUrls: readonly string[];
  pool: AgentPool;
  /** The commands an agent knows (every agent has the same plugins): a type none knows is refused without routing it. */
  commands: { has(type: string): boolean; names(): string[] };
  /** Asked by `server_shutdown` and the end of stdin. */
  requestShutdown(cause: ShutdownCause): void;
}

export class Server implements ConnectionOwner, Admission {
  readonly connections = new Set<Connection>();
  readonly parts: ServerParts;
  #nextId = 1;
  #shuttingDown = false;

  constructor(parts: ServerParts) {
    this.parts = parts;
  }

  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  refusal(): "shutting_down" | "full" | undefined {
    if (this.#shuttingDown) return "shutting_down";
    return this.connections.size >= this.parts.config.limits.maxConnections ? "full" : undefined;
  }

  accept(wire: Wire): void {
    const { limits } = this.parts.config;
    if (this.connections.size >= limits.maxConnections || this.#shuttingDown) {
      const [error, code] = this.#shuttingDown
        ? ["The server is shutting down", "shutting_down" as const]
        : [`The server has ${limits.maxConnections} connections (maxConnections): try again later`, "limit_reached" as const];
      const json = failureJson(undefined, "connect", error, { code });
      wire.send([json], Buffer.byteLength(json));
      void wire.close("too_many_connections");
      return;
    }
    const connection = new Connection(this.#nextId++, wire, this, limits.outboundBytes);
    connection.eventOptions = { ...this.parts.config.eventOptions };
    this.connections.add(connection);
    connection.sendJson(JSON.stringify({ type: "server_hello", protocol: PROTOCOL_VERSION, version: this.parts.version, epoch: this.parts.epoch }));
    wire.start({
      record: (text) => void connection.enqueue(() => this.#dispatch(connection, text)),
      oversized: (bytes) =>
        void connection.enqueue(() => connection.sendJson(failureJson(undefined, "parse", `Failed to parse command: line exceeds the line limit (${bytes} bytes read)`))),
      end: () => {
        // stdio is the process's own client: its end of input ends the server (as --mode rpc).
        if (!wire.closable) this.parts.requestShutdown("eof");
        else connection.inputEnd();
      },
    });
  }

  detachAll(connection: Connection): string[] {
    const handles = [...connection.attachments.keys()];
    for (const handle of handles) {
      const agent = this.parts.pool.agents.get(handle);
      agent?.attached.delete(connection);
      agent?.touch();
    }
    connection.attachments.clear();
    return handles;
  }

  closed(connection: Connection): void {
    this.connections.delete(connection);
  }

  /** Shutdown begins: later records are refused, each connection hears why. */
  beginShutdown(cause: ShutdownCause): void {
    this.#shuttingDown = true;
    const json = JSON.stringify({ type: "server_shutting_down", reason: cause });
    for (const connection of this.connections) connection.sendJson(json);
  }

  async #dispatch(connection: Connection, text: string): Promise<void> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      return this.#invalid(connection, { type: "response", command: "parse", success: false, error: `Failed to parse command: ${(error as Error).message}` });
    }
    const record = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
    if (!record || typeof record.type !== "string") return this.#invalidRecord(connection, parsed);
    const type = record.type;
    const id = validId(record.id);
    const rawId = rawNumericId(text, record.id);
    const agentField = typeof record.agent === "string" ? record.agent : undefined;
    try {
      if (this.#shuttingDown) throw serverErrors.shuttingDown();
      if (record.agent !== undefined && agentField === undefined) throw serverErrors.invalid("Invalid agent: expected string");
      if (Object.hasOwn(SERVER_COMMANDS, type)) {
        if (Object.hasOwn(record, "id") && id === undefined) throw serverErrors.invalid("Invalid id: expected string or number");
        const data = await runServerCommand(this.#context(connection), type as keyof typeof SERVER_COMMANDS, record);
        connection.sendJson(responseJson(success(id, type, data), { rawId }));
        if (type === "server_shutdown") this.parts.requestShutdown("request");
        return;
      }
      if (type === "extension_ui_response") this.#uiReply(connection, record, agentField);
      else if (type === "set_event_options") await this.#eventOptions(connection, record, agentField, rawId);
      else await this.#routed(connection, type, record, agentField, rawId);
    } catch (error) {
      const server = error instanceof ServerError ? error : undefined;
      const message = error instanceof Error ? error.message : String(error);
      connection.sendJson(failureJson(id, type, message, { agent: server?.agent ?? agentField, code: server?.code, rawId }));
    }
  }

  /** A line that is no command: answered in order with the agent it would go to, when there is exactly one. */
  #invalid(connection: Connection, response: Response): void {
    const agent = this.#onlyAttached(connection);
    if (!agent?.loaded || this.#shuttingDown) return connection.sendJson(responseJson(response));
    agent.reject(response, connection);
  }

  #invalidRecord(connection: Connection, parsed: unknown): void {
    const agent = this.#onlyAttached(connection);
    if (agent?.loaded && !this.#shuttingDown) return agent.submit(parsed as object, connection, undefined);
    const id = typeof parsed === "object" && parsed !== null ? validId((parsed as { id?: unknown }).id) : undefined;
    connection.sendJson(failureJson(id, "unknown", 'Invalid command: expected a JSON object with a string "type"'));
  }

  async #routed(connection: Connection, type: string, record: Record<string, unknown>, agentField: string | undefined, rawId: string | undefined): Promise<void> {
    const known = this.parts.commands.has(type);
    // A typo is no reason to name an agent: with none to answer it, the server says what it is.
    if (!known && agentField === undefined && !this.#onlyAttached(connection)) throw this.#unknownCommand(type);
    const agent = this.target(connection, agentField);
    try {
      await this.#submit(connection, agent, type, record, rawId, known);
    } catch (error) {
      if (error instanceof ServerError) error.agent ??= agent.handle;
      throw error;
    }
  }

  async #submit(connection: Connection, agent: ServedAgent, type: string, record: Record<string, unknown>, rawId: string | undefined, known: boolean): Promise<void> {
    // An unknown command changes nothing: the agent answers it, in order with the commands before it.
    if (known && connection.roleFor(agent.handle) === "observe" && !type.startsWith("get_") && type !== "list_sessions") throw serverErrors.unauthorized(type, agent.handle);
    if (agent.waiting >= MAX_AGENT_WAITING) throw serverErrors.overloaded(agent.handle, agent.waiting);
    if (type === "switch_session" && typeof record.sessionPath === "string") {
      const holder = this.parts.pool.holderOf(record.sessionPath, agent);
      if (holder) throw serverErrors.sessionInUse(record.sessionPath, holder);
    }
    await this.parts.pool.ensureLoaded(agent);
    // An agent's own `Unknown command: X` stays as written: through `--connect`, an old client sees exactly what `--mode rpc` writes.
    agent.submit(record, connection, rawId, SESSION_CHANGING.has(type) ? () => void agent.refresh().catch(() => undefined) : undefined);
  }

  #unknownCommand(type: string): KernelError {
    const error = kernelErrors.unknownCommand(type);
    const hint = didYouMean(this.parts.commands.names(), type);
    if (hint) error.message += `.${hint}`;
    return error;
  }

  /** The first answer wins; the other connections attached hear that the dialog is gone. */
  #uiReply(connection: Connection, record: Record<string, unknown>, agentField: string | undefined): void {
    const dialog = typeof record.id === "string" ? record.id : undefined;
    const agent = agentField !== undefined ? this.parts.pool.require(agentField) : this.#dialogOwner(connection, dialog);
    if (!agent?.loaded) return this.parts.host.log.warn(`Ignored extension_ui_response "${String(record.id)}": no agent is waiting for it`);
    if (connection.roleFor(agent.handle) === "observe") throw serverErrors.unauthorized("extension_ui_response", agent.handle);
    const open = dialog !== undefined && agent.dialogs.delete(dialog);
    agent.reply(record);
    if (!open) return;
    const resolved = withEnvelope(JSON.stringify({ type: "extension_ui_resolved", id: dialog, reason: "answered" }), agent.handle, undefined);
    for (const other of agent.attached.keys()) if (other !== connection) other.sendJson(resolved);
  }

  #dialogOwner(connection: Connection, dialog: string | undefined): ServedAgent | undefined {
    for (const handle of connection.attachments.keys()) {
      const agent = this.parts.pool.agents.get(handle);
      if (agent && dialog !== undefined && agent.dialogs.has(dialog)) return agent;
    }
    return this.#onlyAttached(connection);
  }

  /** Per connection: validated as the agent's own command would be, the options in force answered. */
  async #eventOptions(connection: Connection, record: Record<string, unknown>, agentField: string | undefined, rawId: string | undefined): Promise<void> {
    if (agentField !== undefined) this.parts.pool.require(agentField);
    const checked = await new Promise<Response>((resolve) => void this.parts.host.submit(record, { source: "rpc", respond: resolve }));
    if (checked.success) {
      const { messageUpdates, agentSettled } = record as { messageUpdates?: "delta" | "full"; agentSettled?: boolean };
      connection.eventOptions = { messageUpdates: messageUpdates ?? connection.eventOptions.messageUpdates, agentSettled: agentSettled ?? connection.eventOptions.agentSettled };
      (checked as { data?: unknown }).data = { ...connection.eventOptions };
    }
    connection.sendJson(responseJson(checked, { agent: agentField, rawId }));
  }

  /** The agent a command is for: the one it names, else the connection's only attached agent. */
  target(connection: Connection, agentField: string | undefined): ServedAgent {
    if (agentField !== undefined) return this.parts.pool.require(agentField);
    const agent = this.#onlyAttached(connection);
    if (!agent) throw serverErrors.missingAgent(connection.attachments.size);
    return agent;
  }

  #onlyAttached(connection: Connection): ServedAgent | undefined {
    if (connection.attachments.size !== 1) return undefined;
    const [handle] = connection.attachments.keys();
    return this.parts.pool.agents.get(handle!);
  }

  #context(connection: Connection): ServerCommandContext {
    return { server: this, connection, target: (agent) => this.target(connection, agent) };
  }
}

function validId(value: unknown): Id | undefined {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value)) ? value : undefined;
}

function success(id: Id | undefined, command: string, data: unknown): Response {
  const response = (id === undefined ? { type: "response", command, success: true } : { id, type: "response", command, success: true }) as Response & { data?: unknown };
  if (data !== undefined) response.data = data;
  return response;
}
