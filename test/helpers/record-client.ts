/**
 * What the server's test clients share, whatever carries their records (a unix socket's JSON
 * lines, WebSocket messages): every record in `records`, checked against the protocol schema
 * (without the server's envelope) until the test is over, waits on records, and requests with
 * fresh ids answered by their response.
 */
import { ProtocolChecker } from "./protocol.js";
import { checkProtocolOf, CLI, type Record_ } from "./rpc-client.js";

const SERVER_TYPES = new Set(["replay_complete", "agent_closed"]);

/** The protocol schema's view of a record: an agent's records without the server's envelope. */
export function withoutEnvelope(record: Record_): Record_ {
  if (SERVER_TYPES.has(record.type)) return record;
  const { agent: _agent, seq: _seq, ...rest } = record;
  return rest as Record_;
}

let nextId = 1;

export abstract class RecordClient {
  readonly records: Record_[] = [];
  readonly protocolErrors: string[] = [];
  #waiters: { match: (r: Record_) => boolean; resolve: (r: Record_) => void; from: number }[] = [];
  #retired = false;
  readonly #checker = new ProtocolChecker(CLI, []);
  /** Prefix of the ids `request` makes (tells a socket client's requests from a WebSocket one's). */
  readonly #idPrefix: string;

  constructor(idPrefix: string) {
    this.#idPrefix = idPrefix;
    checkProtocolOf(this);
  }

  /** Sends one command as the transport frames it. */
  abstract send(command: Record<string, unknown>): void;

  retire(): void {
    this.#retired = true;
  }

  /** A record as it arrived: kept, checked, and handed to whoever waits for it. */
  protected onRecord(record: Record_): void {
    this.records.push(record);
    if (!this.#retired) {
      const problem = this.#checker.checkIncoming(withoutEnvelope(record));
      if (problem) this.protocolErrors.push(problem);
    }
    const index = this.records.length - 1;
    this.#waiters = this.#waiters.filter((waiter) => {
      if (index >= waiter.from && waiter.match(record)) {
        waiter.resolve(record);
        return false;
      }
      return true;
    });
  }

  /** Sends a command with a fresh id; resolves with its response. */
  async request(command: Record<string, unknown>, timeoutMs = 20_000): Promise<Record_> {
    const id = `${this.#idPrefix}${nextId++}`;
    const from = this.records.length;
    this.send({ ...command, id });
    return this.waitFor((r) => r.type === "response" && r.id === id, timeoutMs, from);
  }

  /** As `request`, resolving with `data`; a failure throws. */
  async ok(command: Record<string, unknown>, timeoutMs?: number): Promise<any> {
    const response = await this.request(command, timeoutMs);
    if (!response.success) throw new Error(`${String(command.type)} failed: ${String(response.error)} (${String(response.code)})`);
    return response.data;
  }

  /** The first record from index `from` on that matches (already here, or when it arrives). */
  waitFor(match: (r: Record_) => boolean, timeoutMs = 20_000, from = 0): Promise<Record_> {
    for (let i = from; i < this.records.length; i++) if (match(this.records[i]!)) return Promise.resolve(this.records[i]!);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for a record; last: ${JSON.stringify(this.records.slice(-4)).slice(0, 1500)}`)), timeoutMs);
      this.#waiters.push({ match, from, resolve: (r) => (clearTimeout(timer), resolve(r)) });
    });
  }
}
