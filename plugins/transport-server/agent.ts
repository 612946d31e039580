/**
 * One served agent: its handle and what the registry remembers, its sibling host while loaded,
 * its events numbered (`seq`, gap-free within the epoch, kept across unload and reload) and kept
 * in the replay ring, fanned out to the attached connections, and the dialogs still open. It
 * never waits for a client: events are serialised once and handed to each connection, whose own
 * bound decides what happens to a slow one.
 */
import type { EmbeddedHost, Logger, OutEvent, Response, SiblingOptions } from "../../kernel/index.js";
import { serializeParts } from "../../lib/jsonl/index.js";
import { deltaUpdateJson } from "../event-options/api.js";
import type { Connection, Role } from "./connection.js";
import type { Part } from "./listener.js";
import { byteLength } from "./listener.js";
import { codeOf } from "./errors.js";
import type { AgentRecord } from "./registry-file.js";
import type { ServerErrorCode } from "./schemas.js";
import { ReplayRing, type RingEntry } from "./ring.js";
import { responseJson } from "./wire-format.js";

const DIALOG_METHODS = new Set(["select", "confirm", "input", "editor"]);

/** What an agent needs from the server around it. */
export interface AgentSurroundings {
  log: Logger;
  replayRecords: number;
  replayBytes: number;
  idleUnloadMs: number;
  openSibling(options: SiblingOptions): Promise<EmbeddedHost>;
  /** The record changed (its session file, after a switch): save it. */
  changed(agent: ServedAgent): void;
  /** Idle for `idleUnloadMs`: unload it. */
  idle(agent: ServedAgent): void;
}

export type AgentStatus = "idle" | "running" | "notLoaded";

export class ServedAgent {
  readonly handle: string;
  record: AgentRecord;
  readonly ring: ReplayRing;
  readonly attached = new Map<Connection, Role>();
  /** Open dialogs by id: their `extension_ui_request` records. */
  readonly dialogs = new Map<string, Record<string, unknown>>();
  readonly #around: AgentSurroundings;
  #host: EmbeddedHost | undefined;
  #loading: Promise<EmbeddedHost> | undefined;
  #unsubscribe: (() => void) | undefined;
  #running = false;
  #waiting = 0;
  #idleTimer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(handle: string, record: AgentRecord, around: AgentSurroundings) {
    this.handle = handle;
    this.record = record;
    this.#around = around;
    this.ring = new ReplayRing(around.replayRecords, around.replayBytes);
  }

  /** In memory only (no session file): never unloaded (it could not come back) and never saved. */
  get inMemory(): boolean {
    return this.record.sessionFile === undefined;
  }

  get seq(): number {
    return this.ring.last;
  }

  get loaded(): boolean {
    return this.#host !== undefined;
  }

  get loading(): boolean {
    return this.#loading !== undefined;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Commands sent to it and not answered yet. */
  get waiting(): number {
    return this.#waiting;
  }

  get status(): AgentStatus {
    if (!this.#host) return "notLoaded";
    return this.#running ? "running" : "idle";
  }

  /** Boots its sibling host (once; concurrent callers share it). */
  load(options: SiblingOptions): Promise<EmbeddedHost> {
    if (this.#host) return Promise.resolve(this.#host);
    this.#loading ??= this.#boot(options).finally(() => (this.#loading = undefined));
    return this.#loading;
  }

  async #boot(options: SiblingOptions): Promise<EmbeddedHost> {
    const host = await this.#around.openSibling({ ...options, log: prefixed(this.#around.log, this.handle), dialogs: true });
    this.#host = host;
    this.#unsubscribe = host.subscribe((event) => this.#onEvent(event));
    await this.refresh();
    this.touch();
    return host;
  }

  /** Where its session is now (after new_session, switch_session, fork, ... or an extension's switch). */
  async refresh(): Promise<void> {
    const host = this.#host;
    if (!host) return;
    const response = (await host.send({ type: "get_state" }, "rpc")) as { data?: { sessionId?: string; sessionFile?: string; sessionName?: string } } | undefined;
    const state = response?.data;
    if (!state?.sessionId) return;
    const { sessionFile: _file, name: _name, ...rest } = this.record;
    const next: AgentRecord = {
      ...rest,
      sessionId: state.sessionId,
      ...(state.sessionFile ? { sessionFile: state.sessionFile } : {}),
      // The agent's name is its session's (set_session_name renames it).
      ...(state.sessionName ? { name: state.sessionName } : {}),
    };
    if (next.sessionId === this.record.sessionId && next.sessionFile === this.record.sessionFile && next.name === this.record.name) return;
    this.record = next;
    this.#around.changed(this);
  }

  #onEvent(event: OutEvent): void {
    const seq = this.ring.last + 1;
    const prefix = `{"agent":"${this.handle}","seq":${seq},`;
    const parts: Part[] = serializeParts(event);
    const last = parts.length - 1;
    parts[last] = (parts[last] as string).slice(0, -1);
    parts[0] = prefix + (parts[0] as string).slice(1);
    const entry: RingEntry = { seq, type: event.type, parts, bytes: byteLength(parts) };
    if (event.type === "message_update") entry.delta = prefix + deltaUpdateJson(event).slice(1);
    this.#track(event);
    this.ring.push(entry);
    for (const connection of this.attached.keys()) connection.sendEvent(entry);
  }

  #track(event: OutEvent): void {
    const type = event.type as string;
    if (type === "agent_start") this.#running = true;
    else if (type === "agent_end") this.#running = false;
    else if (type === "extension_ui_request") {
      const request = event as unknown as { id: string; method: string };
      if (DIALOG_METHODS.has(request.method)) this.dialogs.set(request.id, { ...event });
    } else if (type === "extension_ui_resolved") this.dialogs.delete((event as unknown as { id: string }).id);
    else if (type === "agent_settled") void this.refresh().catch(() => undefined);
    this.touch();
  }

  /**
   * Sends one command; its response goes to `to` only, with `agent` added and the id echoed
   * exactly (`rawId`: a number's original text). `after`: called with the response first.
   */
  submit(record: object, to: Connection, rawId: string | undefined, after?: (response: Response) => void): void {
    const host = this.#host;
    if (!host) throw new Error(`agent ${this.handle} is not loaded`);
    this.#waiting++;
    to.began();
    let code: ServerErrorCode | undefined;
    void host
      .submit(record, {
        source: "rpc",
        failed: (error) => (code = codeOf(error)),
        respond: (response) => {
          after?.(response);
          to.sendJson(responseJson(response, { agent: this.handle, rawId, code }));
        },
      })
      .finally(() => {
        this.#waiting--;
        to.answered();
        this.touch();
      });
  }

  /** A client's line that is no command, answered in order with the commands sent before it. */
  reject(response: Response, to: Connection): void {
    const host = this.#host;
    if (!host) return to.sendJson(responseJson(response));
    to.began();
    host.reject(response, {
      respond: (answer) => {
        to.sendJson(responseJson(answer, { agent: this.handle }));
        to.answered();
      },
    });
  }

  /** A reply (`extension_ui_response`): no response. */
  reply(record: object): void {
    void this.#host?.submit(record, { source: "rpc", respond: () => undefined });
  }

  /** Re-evaluates idleness: no connection, no run, no command waiting, no dialog, for `idleUnloadMs`. */
  touch(): void {
    const idle = this.#host !== undefined && !this.inMemory && !this.#closed && this.attached.size === 0 && !this.#running && this.#waiting === 0 && this.dialogs.size === 0;
    if (!idle) {
      clearTimeout(this.#idleTimer);
      this.#idleTimer = undefined;
    } else if (!this.#idleTimer) {
      this.#idleTimer = setTimeout(() => {
        this.#idleTimer = undefined;
        this.#around.idle(this);
      }, this.#around.idleUnloadMs);
      this.#idleTimer.unref();
    }
  }

  /** Idle enough to unload now (checked again when the timer fires). */
  get unloadable(): boolean {
    return this.#host !== undefined && !this.inMemory && !this.#closed && this.attached.size === 0 && !this.#running && this.#waiting === 0 && this.dialogs.size === 0;
  }

  /** The seed's teardown (closing events, bash cancelled, session flushed); the handle and its ring stay. */
  async unload(reason: "exit" | "eof" | "signal" = "exit"): Promise<void> {
    const host = this.#host;
    if (!host) return;
    clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
    await this.refresh().catch(() => undefined);
    await host.shutdown(reason);
    this.#unsubscribe?.();
    this.#host = undefined;
    this.#running = false;
    this.dialogs.clear();
  }

  /** `agent_close`: unloaded and forgotten; the connections attached hear `agent_closed`. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.unload();
    const closed = JSON.stringify({ type: "agent_closed", agent: this.handle });
    for (const connection of this.attached.keys()) {
      connection.attachments.delete(this.handle);
      connection.sendJson(closed);
    }
    this.attached.clear();
  }
}

function prefixed(log: Logger, handle: string): Logger {
  return { info: (m) => log.info(`${handle}: ${m}`), warn: (m) => log.warn(`${handle}: ${m}`), error: (m) => log.error(`${handle}: ${m}`) };
}
