/**
 * One agent of `atomic serve`, as `connect()` hands it out: every `RpcClient` method, routed to
 * this agent over the server client's connection, and this agent's events, without the server's
 * envelope. It remembers the last `seq` it saw, which a reconnect resumes from; when the server
 * could not replay what was missed (it restarted, or its ring no longer holds it) `onResync`
 * says so, and the client reads the state again (`getMessages`, `getEntries`).
 */
import type { DataOf } from "../lib/protocol-types/index.js";
import type { Record_ } from "./connection.js";
import { AgentMethods } from "./methods.js";

export type Role = "control" | "observe";
export type PendingUi = DataOf<"attach">["pendingUi"];

/** What a handle needs of its server client. */
export interface HandleWire {
  request(command: Record<string, unknown>): Promise<Record_>;
  write(record: Record<string, unknown>): void;
  forget(agent: string): void;
}

export interface Resync {
  epoch: string;
  seq: number;
  /** Dialogs still open (they were announced while this client was away). */
  pendingUi: PendingUi;
}

export class AgentHandle extends AgentMethods {
  /** The server's name for the agent (`a_...`), stable across sessions and restarts. */
  readonly agent: string;
  readonly role: Role;
  readonly #wire: HandleWire;
  #epoch: string;
  #seq: number;
  #closed = false;
  readonly #resyncListeners = new Set<(resync: Resync) => void>();
  readonly #closeListeners = new Set<() => void>();

  /** @internal Made by `ServerClient` (`openAgent`, `attach`). */
  constructor(wire: HandleWire, agent: string, role: Role, epoch: string, seq: number) {
    super();
    this.#wire = wire;
    this.agent = agent;
    this.role = role;
    this.#epoch = epoch;
    this.#seq = seq;
  }

  /** The server epoch of `seq`. */
  get epoch(): string {
    return this.#epoch;
  }

  /** The last event seen (a reconnect asks for the events after it). */
  get seq(): number {
    return this.#seq;
  }

  /** Closed (`close()`, another client's `agent_close`) or detached: no more commands. */
  get closed(): boolean {
    return this.#closed;
  }

  getStderr(): string {
    return "";
  }

  /** The server could not replay what this client missed: read the state again. */
  onResync(listener: (resync: Resync) => void): () => void {
    this.#resyncListeners.add(listener);
    return () => this.#resyncListeners.delete(listener);
  }

  /** The agent was closed (by this client or another) or the server client gave up. */
  onClose(listener: () => void): () => void {
    this.#closeListeners.add(listener);
    return () => this.#closeListeners.delete(listener);
  }

  /** Stops receiving its events; the agent and its run go on. */
  async detach(): Promise<void> {
    await this.#ok({ type: "detach" });
    this.ended();
  }

  /** Closes the agent: its run aborted with the closing events, its bash commands cancelled, its session flushed; the server forgets it. */
  async close(): Promise<void> {
    await this.#ok({ type: "agent_close" });
    this.ended();
  }

  protected request(command: Record<string, unknown>): Promise<Record_> {
    if (this.#closed) return Promise.reject(new Error(`Agent ${this.agent} is closed`));
    return this.#wire.request({ ...command, agent: this.agent });
  }

  protected write(record: Record<string, unknown>): void {
    if (this.#closed) throw new Error(`Agent ${this.agent} is closed`);
    this.#wire.write({ ...record, agent: this.agent });
  }

  async #ok(command: Record<string, unknown>): Promise<void> {
    const response = await this.request(command);
    if (response.success !== true) throw new Error(String(response.error));
  }

  /** @internal An event of this agent (its envelope already taken off); `seq` when it has one. */
  receive(event: Record_, seq: number | undefined): void {
    if (seq !== undefined) {
      // A replay never repeats what was seen; guard anyway (exactly once is the promise).
      if (seq <= this.#seq) return;
      this.#seq = seq;
    }
    this.dispatch(event);
  }

  /** @internal A (re)attach answered: in step again, or told to resync. */
  resumed(data: DataOf<"attach">, announce: boolean): void {
    this.#epoch = data.epoch;
    if (data.gap) {
      this.#seq = data.seq;
      for (const listener of this.#resyncListeners) listener({ epoch: data.epoch, seq: data.seq, pendingUi: data.pendingUi });
    }
    // Dialogs this client never saw: as the events they were.
    if (announce || data.gap) for (const request of data.pendingUi) this.dispatch(request as Record_);
  }

  /** @internal Gone: forgotten by the server client, its waits failed (with `error`, else as closed), listeners told. */
  ended(error?: Error): void {
    if (this.#closed) return;
    this.#closed = true;
    this.forgetRun(error ?? new Error(`Agent ${this.agent} is closed`));
    this.#wire.forget(this.agent);
    for (const listener of this.#closeListeners) listener();
  }
}
