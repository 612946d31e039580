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
import { RecordClient } from "./record-client.js";
import { CLI, type Record_ } from "./rpc-client.js";
import { agentTempDir, registerStopper, tempDir } from "./temp.js";
import { seedAgentTranspileCache } from "./transpile-cache.js";

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
    const args = options.args ?? REPLAY_ARGS;
    const env = { ...process.env, TMPDIR: agentTempDir(), ATOMIC_CODING_AGENT_DIR: this.agentDir, ...options.env };
    const keepTranspiled = seedAgentTranspileCache(env.ATOMIC_CODING_AGENT_DIR ?? this.agentDir, args, this.cwd);
    this.child = spawn(NODE, [CLI, "serve", ...listen, ...args], { cwd: this.cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    this.child.stderr.on("data", (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.child.stdout.on("data", (chunk: Buffer) => (this.stdout += chunk.toString()));
    this.exited = new Promise((resolve) => this.child.once("exit", (code, signal) => resolve({ code, signal })));
    const unregister = registerStopper(() => (this.child.exitCode === null && this.child.signalCode === null ? (this.child.kill("SIGKILL"), this.exited) : this.exited));
    void this.exited.then(unregister);
    if (keepTranspiled) void this.exited.then(keepTranspiled);
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

/** A client on the server's unix socket: JSON lines in, JSON lines out. */
export class ServerClient extends RecordClient {
  readonly socket: Socket;
  readonly closed: Promise<void>;
  bytes = 0;
  #pending: Buffer[] = [];

  constructor(socket: Socket) {
    super("s");
    this.socket = socket;
    socket.on("data", (chunk: Buffer) => this.#onData(chunk));
    socket.on("error", () => undefined);
    this.closed = new Promise((resolve) => socket.once("close", () => resolve()));
  }

  #onData(chunk: Buffer): void {
    this.bytes += chunk.length;
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline >= 0; newline = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, newline);
      const line = (this.#pending.length === 0 ? piece : Buffer.concat([...this.#pending, piece])).toString("utf8");
      this.#pending = [];
      start = newline + 1;
      this.onRecord(JSON.parse(line) as Record_);
    }
    if (start < chunk.length) this.#pending.push(chunk.subarray(start));
  }

  write(text: string): void {
    this.socket.write(text);
  }

  send(command: Record<string, unknown>): void {
    this.write(`${JSON.stringify(command)}\n`);
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
