/**
 * A test client for the built CLI: spawns `node dist/cli/atomic.cjs`, frames stdout strictly on
 * LF (never readline), and offers request/response correlation plus event waiting.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { agentTempDir, registerStopper, tempDir } from "./temp.js";

export { agentTempDir, tempDir } from "./temp.js";

import { NODE } from "./node.js";
import { ProtocolChecker } from "./protocol.js";
import { hangTimeout } from "./hang.js";
import { seedAgentTranspileCache } from "./transpile-cache.js";
import { isRpcLaunch, spawnViaServer, viaServer } from "./via-server.js";

export const CLI = resolve(import.meta.dirname, "../../dist/cli/atomic.cjs");

/** What the protocol check needs of a client: the violations it saw, and a way to stop counting more. */
export interface CheckedClient {
  readonly protocolErrors: string[];
  retire(): void;
}

/** Clients whose traffic has not been checked into a test's result yet (see test/setup.ts). */
const unsettled = new Set<CheckedClient>();

/** Another kind of client (a server's) joins the check every test ends with. */
export function checkProtocolOf(client: CheckedClient): void {
  unsettled.add(client);
}

/** Protocol schema violations seen since the last call, across every client; the clients are retired. */
export function drainProtocolErrors(): string[] {
  const errors = [...unsettled].flatMap((client) => client.protocolErrors.splice(0));
  for (const client of unsettled) client.retire();
  unsettled.clear();
  return errors;
}

export type Record_ = { type: string; [key: string]: unknown };

export interface StartOptions {
  args?: string[];
  /** The CLI to run (default: this repository's build). */
  cli?: string;
  /** Skip schema validation of what this client sends (tests of malformed input); received records are still checked. */
  uncheckedSends?: boolean;
  env?: Record<string, string | undefined>;
  cwd?: string;
  agentDir?: string;
  settings?: Record<string, unknown>;
  /** A command the CLI is started through, e.g. a shell that sets a resource limit and `exec`s "$0" "$@". */
  launcher?: string[];
}

export class RpcClient {
  readonly child: ChildProcessWithoutNullStreams;
  readonly records: Record_[] = [];
  readonly agentDir: string;
  readonly cwd: string;
  stderr = "";
  /** Bytes read from stdout so far. */
  stdoutBytes = 0;
  /** Records (sent or received) that do not match the protocol schema; a test fails on any. */
  readonly protocolErrors: string[] = [];
  readonly #checker: ProtocolChecker;
  readonly #uncheckedSends: boolean;
  #retired = false;
  #pending: Buffer[] = [];
  #waiters: { match: (r: Record_) => boolean; resolve: (r: Record_) => void; reject: (error: Error) => void; from: number }[] = [];
  /** Set once stdout closed: no record can come any more, so waiting fails at once instead of at its timeout. */
  #closed: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  #nextId = 1;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(options: StartOptions = {}) {
    this.agentDir = options.agentDir ?? tempDir("atomic-agent-");
    this.cwd = options.cwd ?? tempDir("atomic-cwd-");
    if (options.settings) {
      mkdirSync(this.agentDir, { recursive: true });
      writeFileSync(join(this.agentDir, "settings.json"), JSON.stringify(options.settings));
    }
    this.#checker = new ProtocolChecker(options.cli ?? CLI, userPlugins(this.agentDir));
    this.#uncheckedSends = options.uncheckedSends ?? false;
    unsettled.add(this);
    const args = options.args ?? ["--mode", "rpc", "--provider", "replay", "--model", "demo", "--no-session"];
    const argv = [NODE, options.cli ?? CLI, ...args];
    const [command, ...rest] = [...(options.launcher ?? []), ...argv];
    const env = { ...process.env, TMPDIR: agentTempDir(), ATOMIC_CODING_AGENT_DIR: this.agentDir, ...options.env };
    const keepTranspiled = seedAgentTranspileCache(env.ATOMIC_CODING_AGENT_DIR ?? this.agentDir, args, this.cwd);
    const via = viaServer() && !options.cli && !options.launcher && isRpcLaunch(args) ? spawnViaServer(CLI, args, { cwd: this.cwd, env }) : undefined;
    this.child = via?.child ?? spawn(command!, rest, { cwd: this.cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    this.child.stdout.on("data", (chunk: Buffer) => this.#onData(chunk));
    this.child.stderr.on("data", (chunk: Buffer) => (this.stderr += chunk.toString()));
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => this.child.once("exit", (code, signal) => resolve({ code, signal })));
    this.exited = via
      ? exit.then(async (result) => {
          await via.serverGone(result.signal);
          return result;
        })
      : exit;
    // "close": the process is gone and its stdout fully read, so every record it wrote is in.
    this.child.once("close", (code, signal) => {
      this.#closed = { code, signal };
      for (const waiter of this.#waiters.splice(0)) waiter.reject(this.#goneError());
    });
    // A client a test forgot to close is killed before its folders are removed.
    const unregister = registerStopper(() => (this.child.exitCode === null && this.child.signalCode === null ? (this.child.kill("SIGKILL"), this.exited) : this.exited));
    void this.exited.then(unregister);
    // Kept before the file's cleanup removes the agent dir (it waits for the same exit); a removed one is skipped.
    if (keepTranspiled) void this.exited.then(keepTranspiled);
  }

  #onData(chunk: Buffer): void {
    this.stdoutBytes += chunk.length;
    // Pending pieces of an unfinished line are joined once, when its LF arrives: linear in size.
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline >= 0; newline = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, newline);
      const line = (this.#pending.length === 0 ? piece : Buffer.concat([...this.#pending, piece])).toString("utf8");
      this.#pending = [];
      start = newline + 1;
      this.#onLine(line);
    }
    if (start < chunk.length) this.#pending.push(chunk.subarray(start));
  }

  #onLine(line: string): void {
    let record: Record_;
    try {
      record = JSON.parse(line) as Record_;
    } catch {
      // --help / --version print text; anything else non-JSON on stdout fails the tests that check records.
      record = { type: "__non_json__", line };
    }
    this.records.push(record);
    if (record.type !== "__non_json__" && !this.#retired) {
      const problem = this.#checker.checkIncoming(record);
      if (problem) this.protocolErrors.push(problem);
    }
    const index = this.records.length - 1;
    this.#waiters = this.#waiters.filter((w) => {
      if (index >= w.from && w.match(record)) {
        w.resolve(record);
        return false;
      }
      return true;
    });
  }

  /** Writes raw text to stdin (no framing added). */
  write(text: string): void {
    this.child.stdin.write(text);
  }

  /** Sends one command; `unchecked` skips its schema validation (a deliberately malformed command). */
  send(command: Record<string, unknown>, options: { unchecked?: boolean } = {}): void {
    if (!this.#uncheckedSends && !options.unchecked) {
      const problem = this.#checker.checkOutgoing(command);
      if (problem) this.protocolErrors.push(problem);
    }
    this.write(JSON.stringify(command) + "\n");
  }

  /** Later records of a finished test are not held against the next one. */
  retire(): void {
    this.#retired = true;
  }

  /** Sends a command with a fresh id and resolves with its response. */
  async request(command: Record<string, unknown>, timeoutMs = 20_000, options: { unchecked?: boolean } = {}): Promise<Record_> {
    const id = `t${this.#nextId++}`;
    const from = this.records.length;
    this.send({ ...command, id }, options);
    return this.waitFor((r) => r.type === "response" && r.id === id, timeoutMs, from);
  }

  /** Like `request`, but resolves with `data` and throws when the command failed. */
  async ok(command: Record<string, unknown>, timeoutMs?: number): Promise<any> {
    const response = await this.request(command, timeoutMs);
    if (!response.success) throw new Error(`${String(command.type)} failed: ${String(response.error)}`);
    return response.data;
  }

  /** Resolves with the first record (at or after index `from`) that matches. */
  waitFor(match: (r: Record_) => boolean, timeoutMs = 20_000, from = 0): Promise<Record_> {
    for (let i = from; i < this.records.length; i++) if (match(this.records[i]!)) return Promise.resolve(this.records[i]!);
    if (this.#closed) return Promise.reject(this.#goneError());
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting for a record; last records: ${JSON.stringify(this.records.slice(-5)).slice(0, 2000)}\nstderr: ${this.stderr.slice(-2000)}`)),
        hangTimeout(timeoutMs),
      );
      this.#waiters.push({ match, from, resolve: (r) => (clearTimeout(timer), resolve(r)), reject: (error) => (clearTimeout(timer), reject(error)) });
    });
  }

  #goneError(): Error {
    const how = this.#closed?.signal ? `was killed by ${this.#closed.signal}` : `exited with code ${this.#closed?.code}`;
    return new Error(`the CLI ${how} before the awaited record; last records: ${JSON.stringify(this.records.slice(-5)).slice(0, 2000)}\nstderr: ${this.stderr.slice(-2000)}`);
  }

  waitForEvent(type: string, timeoutMs = 20_000, from = 0): Promise<Record_> {
    return this.waitFor((r) => r.type === type, timeoutMs, from);
  }

  /** Closes stdin and waits for the process to exit. */
  async close(timeoutMs = 10_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), timeoutMs);
    const result = await this.exited;
    clearTimeout(timer);
    return result;
  }

  types(from = 0): string[] {
    return this.records.slice(from).map((r) => r.type);
  }
}

/** The user's plugin list in an agent dir's settings (the schema includes their commands and events). */
function userPlugins(agentDir: string): string[] {
  const file = join(agentDir, "settings.json");
  if (!existsSync(file)) return [];
  try {
    const plugins = (JSON.parse(readFileSync(file, "utf8")) as { plugins?: unknown }).plugins;
    return Array.isArray(plugins) ? plugins.filter((p): p is string => typeof p === "string") : [];
  } catch {
    return [];
  }
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI once (a subcommand, --list-models, a usage error): no protocol, just its output and exit code. */
export function runCli(args: string[], options: { cwd: string; agentDir: string; env?: Record<string, string | undefined>; stdin?: string; timeoutMs?: number }): Promise<CliRun> {
  return new Promise((resolvePromise, reject) => {
    const env = { ...process.env, TMPDIR: agentTempDir(), ATOMIC_CODING_AGENT_DIR: options.agentDir, ...options.env };
    const keepTranspiled = seedAgentTranspileCache(env.ATOMIC_CODING_AGENT_DIR ?? options.agentDir, args, options.cwd);
    const child = spawn(NODE, [CLI, ...args], { cwd: options.cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 20_000);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      keepTranspiled?.();
      resolvePromise({ code, stdout, stderr });
    });
    child.stdin.end(options.stdin ?? "");
  });
}

/** Writes a cassette into `<agentDir>/cassettes/<name>.jsonl`. Turns are lists of unified events (no partial). */
export function writeCassette(agentDir: string, name: string, turns: object[][], header: Record<string, unknown> = {}): void {
  const dir = join(agentDir, "cassettes");
  mkdirSync(dir, { recursive: true });
  const lines = [{ type: "cassette", version: 1, name, ...header }, ...turns.flatMap((turn) => [{ type: "turn" }, ...turn])];
  writeFileSync(join(dir, `${name}.jsonl`), lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
}

/** A text-only turn as cassette events. */
export function textTurn(text: string, chunks = 3): object[] {
  const size = Math.max(1, Math.ceil(text.length / chunks));
  const events: object[] = [{ type: "text_start", contentIndex: 0 }];
  for (let i = 0; i < text.length; i += size) events.push({ type: "text_delta", contentIndex: 0, delta: text.slice(i, i + size) });
  events.push({ type: "text_end", contentIndex: 0 }, { type: "done", reason: "stop", usage: { input: 10, output: 5 } });
  return events;
}

/** A turn that calls one tool (arguments streamed in two pieces). */
export function toolTurn(id: string, name: string, args: Record<string, unknown>, text?: string): object[] {
  const json = JSON.stringify(args);
  const half = Math.floor(json.length / 2);
  const events: object[] = [];
  let index = 0;
  if (text) events.push({ type: "text_start", contentIndex: 0 }, { type: "text_delta", contentIndex: 0, delta: text }, { type: "text_end", contentIndex: 0 }), (index = 1);
  events.push(
    { type: "toolcall_start", contentIndex: index, id, name },
    { type: "toolcall_delta", contentIndex: index, delta: json.slice(0, half) },
    { type: "toolcall_delta", contentIndex: index, delta: json.slice(half) },
    { type: "toolcall_end", contentIndex: index },
    { type: "done", reason: "toolUse", usage: { input: 10, output: 5 } },
  );
  return events;
}
