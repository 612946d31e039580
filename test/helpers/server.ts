/**
 * `atomic serve` for end-to-end tests: the built CLI as a real child process listening on a real
 * unix socket, and clients over real sockets. Every record a client receives is checked against
 * the protocol schema (the server's envelope, `agent`/`seq`, taken off an agent's records first).
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { NODE } from "./node.js";
import { ProtocolChecker } from "./protocol.js";
import { checkProtocolOf, CLI, type Record_ } from "./rpc-client.js";
import { registerStopper, tempDir } from "./temp.js";

export interface ServerStartOptions {
  /** More arguments after `serve --listen ...` (default: the offline replay model). */
  args?: string[];
  agentDir?: string;
  cwd?: string;
  settings?: Record<string, unknown>;
  env?: Record<string, string | undefined>;
  /** Listener URLs (default: `unix:` at the default path, `<agent dir>/serve/serve.sock`). */
  listen?: string[];
  /** Wait for this many `{"listening": ...}` lines on stderr (default: one per unix listener). */
  wait?: boolean;
}

export const REPLAY_ARGS = ["--provider", "replay", "--model", "demo"];

export class ServerProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly agentDir: string;
  readonly cwd: string;
  readonly socket: string;
  stderr = "";
  stdout = "";
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(options: ServerStartOptions) {
    this.agentDir = options.agentDir ?? tempDir("atomic-agent-");
    this.cwd = options.cwd ?? tempDir("atomic-cwd-");
    this.socket = join(this.agentDir, "serve", "serve.sock");
    if (options.settings) {
      mkdirSync(this.agentDir, { recursive: true });
      writeFileSync(join(this.agentDir, "settings.json"), JSON.stringify(options.settings));
    }
    const listen = (options.listen ?? ["unix:"]).flatMap((url) => ["--listen", url]);
    this.child = spawn(NODE, [CLI, "serve", ...listen, ...(options.args ?? REPLAY_ARGS)], {
      cwd: this.cwd,
      env: { ...process.env, ATOMIC_CODING_AGENT_DIR: this.agentDir, ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child.stderr.on("data", (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.child.stdout.on("data", (chunk: Buffer) => (this.stdout += chunk.toString()));
    this.exited = new Promise((resolve) => this.child.once("exit", (code, signal) => resolve({ code, signal })));
    const unregister = registerStopper(() => (this.child.exitCode === null && this.child.signalCode === null ? (this.child.kill("SIGKILL"), this.exited) : this.exited));
    void this.exited.then(unregister);
  }

  /** Starts a server and resolves once every socket listener listens (or rejects with its stderr when it exits first). */
  static async start(options: ServerStartOptions = {}): Promise<ServerProcess> {
    const server = new ServerProcess(options);
    const sockets = (options.listen ?? ["unix:"]).filter((url) => url.startsWith("unix:")).length;
    if (options.wait === false || sockets === 0) return server;
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if ((server.stderr.match(/\{"listening":/g) ?? []).length >= sockets) resolve();
      };
      server.child.stderr.on("data", check);
      check();
      void server.exited.then(({ code }) => reject(new Error(`atomic serve exited (${code}) before listening: ${server.stderr}`)));
      setTimeout(() => reject(new Error(`atomic serve did not listen within 20 s: ${server.stderr}`)), 20_000).unref();
    });
    return server;
  }

  /** A client on the server's socket (default: its default socket), once `server_hello` has arrived. */
  async connect(path = this.socket): Promise<ServerClient> {
    const client = new ServerClient(connect(path));
    await client.waitFor((r) => r.type === "server_hello" || r.type === "response");
    return client;
  }

  /** Sends a signal and waits for the exit. */
  async stop(signal: NodeJS.Signals = "SIGTERM"): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 20_000);
    const result = await this.exited;
    clearTimeout(timer);
    return result;
  }
}

/** The protocol schema's view of a record: an agent's records without the server's envelope. */
export function withoutEnvelope(record: Record_): Record_ {
  const SERVER_TYPES = new Set(["replay_complete", "agent_closed"]);
  if (SERVER_TYPES.has(record.type)) return record;
  const { agent: _agent, seq: _seq, ...rest } = record;
  return rest as Record_;
}

let nextId = 1;

export class ServerClient {
  readonly socket: Socket;
  readonly records: Record_[] = [];
  readonly protocolErrors: string[] = [];
  readonly closed: Promise<void>;
  bytes = 0;
  #pending: Buffer[] = [];
  #waiters: { match: (r: Record_) => boolean; resolve: (r: Record_) => void; from: number }[] = [];
  #retired = false;
  readonly #checker = new ProtocolChecker(CLI, []);

  constructor(socket: Socket) {
    this.socket = socket;
    checkProtocolOf(this);
    socket.on("data", (chunk: Buffer) => this.#onData(chunk));
    socket.on("error", () => undefined);
    this.closed = new Promise((resolve) => socket.once("close", () => resolve()));
  }

  retire(): void {
    this.#retired = true;
  }

  #onData(chunk: Buffer): void {
    this.bytes += chunk.length;
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline >= 0; newline = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, newline);
      const line = (this.#pending.length === 0 ? piece : Buffer.concat([...this.#pending, piece])).toString("utf8");
      this.#pending = [];
      start = newline + 1;
      this.#onRecord(JSON.parse(line) as Record_);
    }
    if (start < chunk.length) this.#pending.push(chunk.subarray(start));
  }

  #onRecord(record: Record_): void {
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

  write(text: string): void {
    this.socket.write(text);
  }

  send(command: Record<string, unknown>): void {
    this.write(`${JSON.stringify(command)}\n`);
  }

  /** Sends a command with a fresh id; resolves with its response. */
  async request(command: Record<string, unknown>, timeoutMs = 20_000): Promise<Record_> {
    const id = `s${nextId++}`;
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

  waitFor(match: (r: Record_) => boolean, timeoutMs = 20_000, from = 0): Promise<Record_> {
    for (let i = from; i < this.records.length; i++) if (match(this.records[i]!)) return Promise.resolve(this.records[i]!);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for a record; last: ${JSON.stringify(this.records.slice(-4)).slice(0, 1500)}`)), timeoutMs);
      this.#waiters.push({ match, from, resolve: (r) => (clearTimeout(timer), resolve(r)) });
    });
  }

  /** The agent's events received so far (in order), with their `seq`. */
  events(agent: string, from = 0): Record_[] {
    return this.records.slice(from).filter((r) => r.agent === agent && typeof r.seq === "number" && r.type !== "replay_complete");
  }

  async close(): Promise<void> {
    this.socket.end();
    await this.closed;
  }
}

export { tempDir };
