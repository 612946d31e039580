/**
 * The typed client's wire: spawns `atomic --mode rpc`, frames stdout strictly on LF (never
 * readline), matches responses to requests by id, hands every other record to the listeners,
 * and, when the process ends, fails every waiting request and tells the exit listeners (the
 * client's waits), with the exit code or signal and the tail of the agent's stderr.
 */
import { PendingRequests } from "./pending.js";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { LineReader } from "../lib/jsonl/index.js";

export interface ConnectionOptions {
  /** The CLI entry to run with Node (default: this package's own `atomic`). */
  cliPath?: string;
  /**
   * The Node.js binary that runs the CLI (default: `process.execPath`, the Node running this
   * client). Inside Electron, whose `process.execPath` is the app itself, name a `node` here.
   */
  nodePath?: string;
  cwd?: string;
  /** Laid over the client's own environment. */
  env?: Record<string, string | undefined>;
  /** Arguments after `--mode rpc`. */
  args?: string[];
  /** How long a request may wait for its response (default 30 s; 0: forever). `bash` and `compact` always wait. */
  requestTimeoutMs?: number;
}

export type Record_ = { type: string; [key: string]: unknown };
type Listener = (record: Record_) => void;

/** How long after the agent exits its stdout may stay open: a process it started may hold the pipe. */
const EXIT_GRACE_MS = 1_000;
/** How much of the agent's stderr an error quotes (its end: the crash is last). */
const STDERR_TAIL = 2_000;

/** The package's own CLI: `dist/cli/atomic.cjs` beside this module once built (or from the repository). */
export function defaultCliPath(): string {
  const built = fileURLToPath(new URL("../cli/atomic.cjs", import.meta.url));
  return existsSync(built) ? built : fileURLToPath(new URL("../dist/cli/atomic.cjs", import.meta.url));
}

export class Connection {
  readonly #options: ConnectionOptions;
  #child: ChildProcessWithoutNullStreams | undefined;
  readonly #pending = new PendingRequests();
  readonly #listeners = new Set<Listener>();
  readonly #exitListeners = new Set<(error: Error) => void>();
  #nextId = 0;
  #stderr = "";
  #exited: Promise<void> | undefined;
  /** How the process ended (`exited with code 1`), once it has. */
  #exit: string | undefined;

  constructor(options: ConnectionOptions) {
    this.#options = options;
  }

  get stderr(): string {
    return this.#stderr;
  }

  get running(): boolean {
    return this.#child !== undefined && this.#child.exitCode === null && this.#child.signalCode === null;
  }

  /** Spawns the agent; rejects (nothing left running) when it cannot start: a missing cwd, no such Node binary. */
  async open(modeArgs: string[]): Promise<void> {
    if (this.#child) throw new Error("Client already started");
    this.#exit = undefined;
    const { cwd } = this.#options;
    // Node reports a missing cwd as a spawn ENOENT that names the binary, not the folder.
    if (cwd !== undefined) await checkFolder(cwd);
    const node = this.#options.nodePath ?? process.execPath;
    // Loaded here: pi's compatibility modules re-export the client, and an extension's start need not load the module.
    const { spawn } = await import("node:child_process");
    const child = spawn(node, [this.#options.cliPath ?? defaultCliPath(), ...modeArgs, ...(this.#options.args ?? [])], {
      cwd,
      env: { ...process.env, ...this.#options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.#child = child;
    // Without a listener, a spawn failure would be an uncaught 'error' in the embedding process.
    child.on("error", (error) => this.#pending.failAll(new Error(`Agent process failed: ${error.message}${this.#stderrDetail()}`)));
    child.stderr.on("data", (chunk: Buffer) => (this.#stderr += chunk.toString()));
    const reader = new LineReader((line) => this.#onLine(line));
    child.stdout.on("data", (chunk: Buffer) => reader.push(chunk));
    child.stdout.on("end", () => reader.end());
    // A write after the agent exited is reported through the pending requests, not as a crash.
    child.stdin.on("error", () => undefined);
    this.#exited = new Promise((resolve) => {
      let over = false;
      const ended = (code: number | null, signal: NodeJS.Signals | null) => {
        // Once per process, and only for the one this connection still runs (not one that failed to spawn).
        if (over || this.#child !== child) return resolve();
        over = true;
        this.#exit = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        const error = new Error(`Agent process ${this.#exit}${this.#stderrDetail()}`);
        this.#pending.failAll(error);
        for (const listener of this.#exitListeners) listener(error);
        resolve();
      };
      // 'close' comes once stdout is read to its end (every record before the exit delivered);
      // a process the agent started that inherited the pipe would hold it open, so not for long.
      child.once("exit", (code, signal) => {
        const grace = setTimeout(() => {
          child.stdout.destroy();
          child.stderr.destroy();
          ended(code, signal);
        }, EXIT_GRACE_MS);
        child.once("close", () => clearTimeout(grace));
      });
      child.once("close", (code, signal) => ended(code, signal));
    });
    try {
      await new Promise<void>((resolve, reject) => {
        child.once("spawn", resolve);
        child.once("error", reject);
      });
    } catch (error) {
      this.#child = undefined;
      throw new Error(`Cannot start the agent with ${node}: ${(error as Error).message}`);
    }
  }

  /** Called once when the process ends, after the waiting requests failed, with the same error. */
  onExit(listener: (error: Error) => void): () => void {
    this.#exitListeners.add(listener);
    return () => this.#exitListeners.delete(listener);
  }

  onRecord(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Writes one command with a fresh id (or its own string id) and resolves with its response. */
  request(command: Record<string, unknown>): Promise<Record_> {
    const child = this.#child;
    if (!child || !this.running) return Promise.reject(this.#notRunning());
    const id = typeof command.id === "string" ? command.id : `req_${++this.#nextId}`;
    const write = () => child.stdin.write(`${JSON.stringify({ ...command, id })}\n`);
    return this.#pending.track(id, String(command.type), this.#options.requestTimeoutMs ?? 30_000, write, () => this.#stderrDetail());
  }

  /** Writes a record that gets no response (`extension_ui_response`). */
  write(record: Record<string, unknown>): void {
    if (!this.#child || !this.running) throw this.#notRunning();
    this.#child.stdin.write(`${JSON.stringify(record)}\n`);
  }

  /** Closes stdin (the agent answers what it read, flushes and exits), then signals if it lingers. */
  async close(graceMs = 5_000): Promise<void> {
    const child = this.#child;
    if (!child) return;
    child.stdin.end();
    const escalate = setTimeout(() => child.kill("SIGTERM"), graceMs);
    const kill = setTimeout(() => child.kill("SIGKILL"), graceMs + 2_000);
    await this.#exited;
    clearTimeout(escalate);
    clearTimeout(kill);
    this.#child = undefined;
  }

  #onLine(line: string): void {
    let record: Record_;
    try {
      record = JSON.parse(line) as Record_;
    } catch {
      return;
    }
    if (this.#pending.settle(record)) return;
    for (const listener of this.#listeners) listener(record);
  }

  #notRunning(): Error {
    if (!this.#child) return new Error("Client not started");
    return new Error(`Agent process is not running${this.#exit ? ` (it ${this.#exit})` : ""}${this.#stderrDetail()}`);
  }

  /** `. Stderr: <its last 2,000 characters>` (nothing when it wrote none). */
  #stderrDetail(): string {
    const text = this.#stderr.trimEnd();
    if (!text) return "";
    return `. Stderr: ${text.length > STDERR_TAIL ? `...${text.slice(-STDERR_TAIL)}` : text}`;
  }
}

async function checkFolder(cwd: string): Promise<void> {
  let isFolder: boolean;
  try {
    isFolder = (await stat(cwd)).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(`Cannot start the agent in ${cwd}: ${code === "ENOENT" ? "the folder does not exist" : (error as Error).message}`);
  }
  if (!isFolder) throw new Error(`Cannot start the agent in ${cwd}: not a folder`);
}
