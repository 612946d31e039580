/**
 * `connect()`: a client of a running `atomic serve` (docs/server.md). One connection carries many
 * agents: `openAgent`, `attach` and `listAgents` give `AgentHandle`s with the `RpcClient`
 * methods. When the connection drops, it reconnects (with backoff, for `reconnectTimeoutMs`) and
 * attaches every handle again after the last `seq` it saw, so each handle gets every event once;
 * commands sent meanwhile wait for the reconnect, commands in flight when it dropped fail (the
 * server may or may not have run them). A connection that went silent without closing (a network
 * that drops packets, a peer asleep) is noticed by a probe and given up like a closed one.
 */
import { PendingRequests } from "./pending.js";
import type { Socket } from "node:net";
import type { AgentOpenCommand, DataOf } from "../lib/protocol-types/index.js";
import { AgentHandle, type HandleWire, type Role } from "./agent-handle.js";
import type { Record_ } from "./connection.js";
import type { RpcEventListener } from "./methods.js";
import { AgentHandles } from "./server-handles.js";
import { dialServer, socketPath } from "./server-dial.js";

export interface ServerClientOptions {
  /** Reconnect when the connection drops, resuming each agent after its last `seq` (default true). */
  reconnect?: boolean;
  /** How long to keep trying to reconnect (default 30 s). */
  reconnectTimeoutMs?: number;
  /**
   * After this long without a record, a cheap request probes the connection; no answer within as
   * long again and the connection is given up and reconnected (default 20 s; 0: never probe).
   */
  keepaliveMs?: number;
  /** How long a command may wait for its response (default 30 s; 0: forever). `bash` and `compact` always wait. */
  requestTimeoutMs?: number;
  /** Where `unix:` alone looks (`<agent dir>/serve/serve.sock`); default ATOMIC_CODING_AGENT_DIR, else ~/.atomic/agent. */
  agentDir?: string;
  /** This connection's message_update form (`set_event_options`); `agent_settled` is always asked for. */
  messageUpdates?: "delta" | "full";
}

/** How long `close()` waits for the server to answer the end of the connection. */
const CLOSE_GRACE_MS = 2_000;

export type AgentOpenOptions = Omit<AgentOpenCommand, "type" | "id">;

/** Connects to `url` (`unix:PATH`, `unix:` for the default socket); rejects when nobody answers there. */
export async function connect(url = "unix:", options: ServerClientOptions = {}): Promise<ServerClient> {
  const client = new ServerClient(socketPath(url, options.agentDir), options);
  await client.open();
  return client;
}

export class ServerClient {
  /** The socket it connects to. */
  readonly path: string;
  readonly #options: ServerClientOptions;
  readonly #pending = new PendingRequests();
  readonly #handles = new AgentHandles();
  readonly #closeListeners = new Set<(error?: Error) => void>();
  readonly #reconnectListeners = new Set<() => void>();
  readonly #wire: HandleWire;
  #socket: Socket | undefined;
  #epoch = "";
  #version = "";
  #nextId = 0;
  #closed = false;
  #reconnecting: Promise<void> | undefined;
  #keepalive: NodeJS.Timeout | undefined;
  /** Something arrived on the connection since the last keepalive tick. */
  #heard = false;
  #probing = false;

  constructor(path: string, options: ServerClientOptions = {}) {
    this.path = path;
    this.#options = options;
    this.#wire = {
      request: (command) => this.#request(command),
      write: (record) => this.#write(record),
      forget: (agent) => this.#handles.forget(agent),
    };
  }

  /** The server's epoch (a restart draws a new one). */
  get epoch(): string {
    return this.#epoch;
  }

  get version(): string {
    return this.#version;
  }

  get connected(): boolean {
    return this.#socket !== undefined && !this.#reconnecting;
  }

  /** The first connection (`connect()` calls it): rejects when the server is not there or refuses it. */
  async open(): Promise<void> {
    await this.#dial();
    await this.#eventOptions();
    this.#startKeepalive();
  }

  info(): Promise<DataOf<"server_info">> {
    return this.#data({ type: "server_info" });
  }

  async listAgents(): Promise<DataOf<"agent_list">["agents"]> {
    return (await this.#data({ type: "agent_list" })).agents;
  }

  /** Opens an agent (a session) and attaches to it as a controller. `onEvent` also hears what it said while it booted. */
  async openAgent(options: AgentOpenOptions = {}, onEvent?: RpcEventListener): Promise<AgentHandle> {
    const data = await this.#handles.handingOut(() => this.#data({ type: "agent_open", ...options }));
    const handle = new AgentHandle(this.#wire, data.agent, "control", data.epoch, 0);
    return this.#handles.adopt(handle, { gap: false, replayed: 0, pendingUi: [], ...data }, onEvent);
  }

  /**
   * Attaches to an agent: its events from now on, and any dialog still open. `after`: first the
   * events after this seq of this epoch, once each (0: all the server still holds), which
   * `onEvent` hears (it is listening before they come).
   */
  async attach(agent: string, options: { role?: Role; after?: number; onEvent?: RpcEventListener } = {}): Promise<AgentHandle> {
    const role = options.role ?? "control";
    const { after } = options;
    const replay = after === undefined ? {} : { after, epoch: this.#epoch };
    const data = await this.#handles.handingOut(() => this.#data({ type: "attach", agent, role, ...replay }));
    const handle = this.#handles.get(agent) ?? new AgentHandle(this.#wire, agent, role, data.epoch, after ?? data.seq);
    return this.#handles.adopt(handle, data, options.onEvent);
  }

  /** Asks the server to shut down (every agent's teardown, then it exits). */
  async shutdown(): Promise<void> {
    await this.#data({ type: "server_shutdown" });
  }

  /** Closes the connection (the agents and their runs stay on the server); no reconnect. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const socket = this.#socket;
    if (socket && !socket.destroyed) {
      // A peer that went silent never answers the end: it is cut after a moment.
      const cut = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS);
      await new Promise<void>((done) => socket.once("close", () => done()).end());
      clearTimeout(cut);
    }
    this.#finish();
  }

  onClose(listener: (error?: Error) => void): () => void {
    this.#closeListeners.add(listener);
    return () => this.#closeListeners.delete(listener);
  }

  /** Called after each reconnect, once every handle is attached again. */
  onReconnect(listener: () => void): () => void {
    this.#reconnectListeners.add(listener);
    return () => this.#reconnectListeners.delete(listener);
  }

  async #data<T extends keyof ServerData>(command: { type: T } & Record<string, unknown>): Promise<ServerData[T]> {
    const response = await this.#request(command);
    if (response.success !== true) throw Object.assign(new Error(String(response.error)), { code: response.code });
    return response.data as ServerData[T];
  }

  /** Waits out a reconnect, then sends. */
  async #request(command: Record<string, unknown>): Promise<Record_> {
    if (this.#reconnecting) await this.#reconnecting;
    return this.#send(command);
  }

  #send(command: Record<string, unknown>): Promise<Record_> {
    const socket = this.#socket;
    if (this.#closed || !socket) return Promise.reject(new Error(`Not connected to atomic serve at ${this.path}`));
    const id = typeof command.id === "string" ? command.id : `srv_${++this.#nextId}`;
    const write = () => socket.write(`${JSON.stringify({ ...command, id })}\n`);
    return this.#pending.track(id, String(command.type), this.#options.requestTimeoutMs ?? 30_000, write);
  }

  #write(record: Record<string, unknown>): void {
    if (this.#closed || !this.#socket) throw new Error(`Not connected to atomic serve at ${this.path}`);
    this.#socket.write(`${JSON.stringify(record)}\n`);
  }

  /** One connection (server-dial.ts), which becomes the client's once the server greeted it. */
  #dial(): Promise<void> {
    return dialServer(this.path, {
      line: (socket) => {
        if (this.#socket === socket) this.#heard = true;
      },
      greeted: (socket, hello) => {
        this.#epoch = String(hello.epoch);
        this.#version = String(hello.version);
        this.#socket = socket;
      },
      record: (record) => this.#onRecord(record),
      closed: (socket) => {
        if (this.#socket === socket) this.#lost();
      },
    });
  }

  #eventOptions(): Promise<unknown> {
    return this.#send({ type: "set_event_options", agentSettled: true, ...(this.#options.messageUpdates ? { messageUpdates: this.#options.messageUpdates } : {}) });
  }

  #onRecord(record: Record_): void {
    if (this.#pending.settle(record)) return;
    if (record.type === "client_lagged") return void this.#handles.resume(record.agents as string[], (command) => this.#send(command)).catch(() => undefined);
    this.#handles.route(record);
  }

  /** The connection dropped: what was in flight fails; reconnect (unless closed), or give up. */
  #lost(): void {
    this.#socket = undefined;
    this.#failPending(new Error("The connection to atomic serve was lost"));
    if (this.#closed || this.#options.reconnect === false) return this.#finish(new Error("The connection to atomic serve was lost"));
    this.#reconnecting = this.#reconnect().finally(() => (this.#reconnecting = undefined));
  }

  async #reconnect(): Promise<void> {
    const deadline = Date.now() + (this.#options.reconnectTimeoutMs ?? 30_000);
    for (let delay = 50; !this.#closed; delay = Math.min(delay * 2, 2_000)) {
      try {
        await this.#dial();
        await this.#eventOptions();
        await this.#handles.resume(this.#handles.agents(), (command) => this.#send(command));
        for (const listener of this.#reconnectListeners) listener();
        return;
      } catch (error) {
        this.#socket?.destroy();
        this.#socket = undefined;
        if (Date.now() + delay > deadline) return this.#finish(new Error(`Cannot reconnect to atomic serve at ${this.path}: ${(error as Error).message}`));
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  #failPending(error: Error): void {
    this.#pending.failAll(error);
  }

  /**
   * Each tick: a connection heard from since the last one is alive; a silent one gets a probe,
   * and one whose probe goes unanswered is destroyed (its close starts the reconnect).
   */
  #startKeepalive(): void {
    const every = this.#options.keepaliveMs ?? 20_000;
    if (every <= 0 || this.#keepalive) return;
    this.#keepalive = setInterval(() => {
      const socket = this.#socket;
      if (!socket || this.#reconnecting || this.#probing) return;
      if (this.#heard) return void (this.#heard = false);
      this.#probing = true;
      const id = `srv_${++this.#nextId}`;
      this.#pending
        .track(id, "server_info", every, () => socket.write(`${JSON.stringify({ type: "server_info", id })}\n`))
        .catch(() => {
          if (this.#socket === socket) socket.destroy();
        })
        .finally(() => (this.#probing = false));
    }, every);
    this.#keepalive.unref();
  }

  #finish(error?: Error): void {
    this.#closed = true;
    clearInterval(this.#keepalive);
    this.#failPending(error ?? new Error("The server client is closed"));
    for (const handle of this.#handles.all()) handle.ended(error ?? new Error("The server client is closed"));
    for (const listener of this.#closeListeners) listener(error);
    this.#closeListeners.clear();
  }
}

interface ServerData {
  server_info: DataOf<"server_info">;
  agent_list: DataOf<"agent_list">;
  agent_open: DataOf<"agent_open">;
  attach: DataOf<"attach">;
  server_shutdown: undefined;
}
