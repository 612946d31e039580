/**
 * One client connection: what it is attached to (and in which role), its event options, its
 * records handled in arrival order, and its outbound bytes held to a bound (docs/server.md, Slow
 * clients). A socket that falls behind by more than `outboundBytes` is told why (where that fits)
 * and closed; stdio, the process's own pipe, is detached from its agents and told `client_lagged`
 * once it has caught up. Responses are never dropped while the connection stays open. Reading
 * pauses while too many of its commands wait for an answer, so a flood cannot grow memory.
 */
import { DEFAULT_EVENT_OPTIONS, type EventOptions } from "../event-options/api.js";
import { byteLength, type CloseReason, type Part, type Wire } from "./listener.js";
import type { RingEntry } from "./ring.js";

export type Role = "control" | "observe";

/** What a connection asks of the server. */
export interface ConnectionOwner {
  /** Detaches the connection from every agent; returns their handles. */
  detachAll(connection: Connection): string[];
  /** The connection is closed: forget it. */
  closed(connection: Connection): void;
}

/** Commands waiting for an answer before reading pauses, and the count reading resumes at. */
const MAX_IN_FLIGHT = 1024;
const RESUME_IN_FLIGHT = 256;

export class Connection {
  readonly id: number;
  readonly wire: Wire;
  readonly attachments = new Map<string, Role>();
  eventOptions: EventOptions = { ...DEFAULT_EVENT_OPTIONS };
  readonly #owner: ConnectionOwner;
  readonly #limit: number;
  #chain: Promise<void> = Promise.resolve();
  #inFlight = 0;
  #paused = false;
  #lagging = false;
  #inputEnded = false;
  #closing: Promise<void> | undefined;
  /** The largest record queued since the wire was last empty. */
  #largest = 0;

  constructor(id: number, wire: Wire, owner: ConnectionOwner, outboundLimit: number) {
    this.id = id;
    this.wire = wire;
    this.#owner = owner;
    this.#limit = outboundLimit;
  }

  get open(): boolean {
    return this.#closing === undefined;
  }

  /**
   * Attached, and to every agent as an observer: it opens, closes and shuts down nothing, and
   * reads the agents it is not attached to. Detached from all, it is a plain connection again:
   * roles keep a client that watches from acting by mistake; whoever can connect can control.
   */
  get observer(): boolean {
    if (this.attachments.size === 0) return false;
    for (const role of this.attachments.values()) if (role === "control") return false;
    return true;
  }

  /** Its role toward an agent: the one it attached with, else as an observer or not (`observer`). */
  roleFor(handle: string): Role {
    return this.attachments.get(handle) ?? (this.observer ? "observe" : "control");
  }

  get inputEnded(): boolean {
    return this.#inputEnded;
  }

  /** Runs `task` after the tasks queued before it (each record in arrival order). */
  enqueue(task: () => Promise<void> | void): Promise<void> {
    const next = this.#chain.then(task);
    this.#chain = next.catch(() => undefined);
    return this.#chain;
  }

  /** Resolves once every record read so far has been dispatched. */
  dispatched(): Promise<void> {
    return this.#chain;
  }

  /** Counts a command until its answer is written. */
  began(): void {
    this.#inFlight++;
    this.#gate();
  }

  answered(): void {
    this.#inFlight--;
    this.#gate();
    this.#maybeFinish();
  }

  get waiting(): number {
    return this.#inFlight;
  }

  /** The peer's input ended: once every command it sent is answered, the connection closes. */
  inputEnd(): void {
    this.#inputEnded = true;
    this.#maybeFinish();
  }

  #maybeFinish(): void {
    if (!this.#inputEnded || this.#inFlight > 0 || !this.open) return;
    void this.#chain.then(() => {
      if (this.#inFlight === 0) void this.close("end");
    });
  }

  /** A response or a server record: written even past the bound on stdio; a socket past it is closed. */
  sendJson(json: string): void {
    if (!this.open) return;
    const bytes = Buffer.byteLength(json);
    if (this.wire.closable && this.#over(bytes)) return this.#slowSocket();
    this.wire.send([json], bytes);
    if (!this.wire.closable && this.#over(0)) this.#lag();
  }

  /** An agent event, in the form this connection chose; past the bound, the slow-consumer policy. */
  sendEvent(entry: RingEntry): void {
    if (!this.open || this.#lagging) return;
    if (entry.type === "agent_settled" && !this.eventOptions.agentSettled) return;
    const delta = entry.delta !== undefined && this.eventOptions.messageUpdates === "delta";
    const parts: readonly Part[] = delta ? [entry.delta!] : entry.parts;
    const bytes = delta ? Buffer.byteLength(entry.delta!) : entry.bytes;
    if (this.#over(bytes)) return this.wire.closable ? this.#slowSocket() : this.#lag();
    this.wire.send(parts, bytes);
  }

  /**
   * Past the bound with this record. A record larger than the bound still passes (records of any
   * size do): the bound is what waits beyond the largest record in flight, which is forgotten
   * once everything was written.
   */
  #over(bytes: number): boolean {
    const waiting = this.wire.outboundBytes();
    if (waiting === 0) this.#largest = 0;
    this.#largest = Math.max(this.#largest, bytes);
    return waiting + bytes > this.#limit + this.#largest;
  }

  /** The notice goes past the bound: a few bytes on a socket about to close, and the client's only word on why. */
  #slowSocket(): void {
    const notice = JSON.stringify({ type: "connection_closing", reason: "slow_consumer" });
    this.wire.send([notice], notice.length);
    void this.close("slow_consumer");
  }

  /** stdio past the bound: detached from its agents; `client_lagged` once what it owes has been written. */
  #lag(): void {
    if (this.#lagging) return;
    this.#lagging = true;
    const agents = this.#owner.detachAll(this);
    this.#gate();
    this.wire.onceFlushed(() => {
      this.#lagging = false;
      if (!this.open) return;
      const json = JSON.stringify({ type: "client_lagged", agents });
      this.wire.send([json], byteLength([json]));
      this.#gate();
    });
  }

  /** Reading pauses while too many commands wait or stdio is catching up, and resumes after. */
  #gate(): void {
    if (!this.open) return;
    const stop = this.#inFlight > MAX_IN_FLIGHT || this.#lagging;
    if (stop && !this.#paused) {
      this.#paused = true;
      this.wire.pauseInput();
    } else if (this.#paused && !this.#lagging && this.#inFlight < RESUME_IN_FLIGHT) {
      this.#paused = false;
      this.wire.resumeInput();
    }
  }

  /** Detached and forgotten at once; the wire flushes what it owes (within its grace) and closes. */
  close(reason: CloseReason): Promise<void> {
    if (!this.#closing) {
      this.#closing = this.wire.close(reason);
      this.#owner.detachAll(this);
      this.#owner.closed(this);
    }
    return this.#closing;
  }
}
