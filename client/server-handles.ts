/**
 * The agents one server connection carries (server.ts): each record routed to its agent's
 * handle, the events an agent sends before its handle exists (its boot, a replay: kept while an
 * agent_open or attach is under way, then handed to the handle first), and the handles attached
 * again after a reconnect. The connection itself, its requests and reconnects are server.ts's.
 */
import type { DataOf } from "../lib/protocol-types/index.js";
import type { AgentHandle } from "./agent-handle.js";
import type { Record_ } from "./connection.js";
import type { RpcEventListener } from "./methods.js";

export class AgentHandles {
  readonly #handles = new Map<string, AgentHandle>();
  /** Events of agents a pending agent_open or attach is about to hand out. */
  readonly #early = new Map<string, Record_[]>();
  #opening = 0;

  get(agent: string): AgentHandle | undefined {
    return this.#handles.get(agent);
  }

  agents(): string[] {
    return [...this.#handles.keys()];
  }

  all(): AgentHandle[] {
    return [...this.#handles.values()];
  }

  forget(agent: string): void {
    this.#handles.delete(agent);
  }

  /** Runs an agent_open or attach: the events its agent sends meanwhile are kept for the handle. */
  async handingOut<T>(run: () => Promise<T>): Promise<T> {
    this.#opening++;
    try {
      return await run();
    } finally {
      this.#opening--;
    }
  }

  /** Events that came before the handle (an agent's boot, a replay) go to it first. */
  adopt(handle: AgentHandle, data: DataOf<"attach">, onEvent: RpcEventListener | undefined): AgentHandle {
    this.#handles.set(handle.agent, handle);
    if (onEvent) handle.onEvent(onEvent);
    for (const record of this.#early.get(handle.agent) ?? []) deliver(handle, record);
    this.#early.delete(handle.agent);
    handle.resumed(data, true);
    return handle;
  }

  /** A record that answers no request: an agent's event, or its end. */
  route(record: Record_): void {
    const agent = typeof record.agent === "string" ? record.agent : undefined;
    if (agent === undefined || record.type === "replay_complete") return;
    const handle = this.#handles.get(agent);
    if (record.type === "agent_closed") return handle?.ended();
    if (handle) return deliver(handle, record);
    if (this.#opening > 0) this.#early.set(agent, [...(this.#early.get(agent) ?? []), record]);
  }

  /** Attaches these agents again after the last seq each saw: a replay, or a gap (resync). */
  async resume(agents: readonly string[], send: (command: Record<string, unknown>) => Promise<Record_>): Promise<void> {
    for (const agent of agents) {
      const handle = this.#handles.get(agent);
      if (!handle) continue;
      const response = await send({ type: "attach", agent, role: handle.role, after: handle.seq, epoch: handle.epoch });
      if (response.success === true) handle.resumed(response.data as DataOf<"attach">, false);
      else if (response.code === "unknown_agent") handle.ended();
      else throw new Error(String(response.error));
    }
  }
}

function deliver(handle: AgentHandle, record: Record_): void {
  const { agent: _agent, seq, ...event } = record;
  handle.receive(event as Record_, typeof seq === "number" ? seq : undefined);
}
