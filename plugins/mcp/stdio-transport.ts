/**
 * The stdio transport of a local MCP server, on the SDK's `Transport` contract and message
 * (de)serialisation. Ours rather than the SDK's because the server must run as the root of its
 * own process group (lib/process-tree), so stopping it stops what a wrapper such as `npx` or
 * `uvx` started, and because its stderr goes to the agent's stderr line by line, each line
 * labelled with the server, the last lines kept for the error shown when it dies. Stopping:
 * stdin closed (what the MCP spec asks), then SIGTERM to the group, then SIGKILL. When the agent
 * process exits, every group still running is killed.
 */
import type { ChildProcess } from "node:child_process";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { LineReader } from "../../lib/jsonl/index.js";
import { signalProcessTree, treeSpawnOptions, type ProcessTreeSystem, type TreeSignal } from "../../lib/process-tree/index.js";
import type { StdioLaunch } from "./resolve.js";

/** A message line larger than this ends the connection rather than memory. */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
const STDERR_KEPT_LINES = 5;
const STDIN_CLOSE_GRACE_MS = 300;
const TERM_GRACE_MS = 700;

type Sdk = { deserializeMessage(line: string): JSONRPCMessage; serializeMessage(message: JSONRPCMessage): string };

/** Process groups still running, killed if the agent exits before closing them. */
const running = new Set<ChildProcess>();
let system: ProcessTreeSystem | undefined;

async function processSystem(): Promise<ProcessTreeSystem> {
  if (system) return system;
  const { spawn } = await import("node:child_process");
  system = { platform: process.platform, kill: (pid, signal) => process.kill(pid, signal), spawn };
  const known = system;
  process.once("exit", () => {
    for (const child of running) if (child.pid) signalProcessTree(child.pid, "SIGKILL", known);
  });
  return system;
}

export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  readonly #launch: StdioLaunch;
  readonly #label: string;
  readonly #sdk: Sdk;
  readonly #writeStderr: (text: string) => void;
  #child: ChildProcess | undefined;
  #system: ProcessTreeSystem | undefined;
  #closed = false;
  #exited: Promise<void> | undefined;
  /** The last lines the server wrote to stderr, for the error when it dies. */
  readonly stderrTail: string[] = [];
  exitDescription: string | undefined;

  constructor(launch: StdioLaunch, label: string, sdk: Sdk, writeStderr: (text: string) => void = (text) => process.stderr.write(text)) {
    this.#launch = launch;
    this.#label = label;
    this.#sdk = sdk;
    this.#writeStderr = writeStderr;
  }

  async start(): Promise<void> {
    this.#system = await processSystem();
    const { command, args, env, cwd } = this.#launch;
    const child = this.#system.spawn(command, args, { cwd, env, stdio: ["pipe", "pipe", "pipe"], ...treeSpawnOptions(process.platform) });
    this.#child = child;
    running.add(child);
    this.#exited = new Promise((resolve) => child.once("close", () => resolve()));
    child.once("exit", (code, signal) => {
      this.exitDescription = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    });
    child.once("close", () => this.#finish());
    const lines = new LineReader((line) => this.#onLine(line), {
      maxLineBytes: MAX_MESSAGE_BYTES,
      onOversized: (bytes) => this.onerror?.(new Error(`MCP server ${this.#label} sent a message of ${bytes} bytes (more than ${MAX_MESSAGE_BYTES}); it was dropped`)),
    });
    child.stdout!.on("data", (chunk: Buffer) => lines.push(chunk));
    const stderr = new LineReader((line) => this.#onStderr(line), { maxLineBytes: 64 * 1024 });
    child.stderr!.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.stderr!.once("end", () => stderr.end());
    // A server that exits closes its stdin: a write then fails with EPIPE, which the close reports.
    child.stdin!.on("error", () => undefined);
    await new Promise<void>((resolve, reject) => {
      let spawned = false;
      child.once("spawn", () => {
        spawned = true;
        resolve();
      });
      child.on("error", (error: NodeJS.ErrnoException) => {
        if (spawned) return this.onerror?.(error);
        running.delete(child);
        reject(new Error(error.code === "ENOENT" ? `command not found: ${command} (in ${cwd})` : `cannot start ${command}: ${error.message}`));
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || this.#closed || stdin.destroyed) return Promise.reject(new Error(`MCP server ${this.#label} is not running`));
    const text = this.#sdk.serializeMessage(message);
    return stdin.write(text) ? Promise.resolve() : new Promise((resolve) => stdin.once("drain", resolve));
  }

  /** Closes stdin, then signals the group until it is gone. Resolves once it exited. */
  async close(): Promise<void> {
    const child = this.#child;
    if (!child || this.#closed) return this.#exited;
    this.#closed = true;
    child.stdin?.end();
    if (await exitsWithin(this.#exited!, STDIN_CLOSE_GRACE_MS)) return;
    this.#signal("SIGTERM");
    if (await exitsWithin(this.#exited!, TERM_GRACE_MS)) return;
    this.#signal("SIGKILL");
    await exitsWithin(this.#exited!, TERM_GRACE_MS);
  }

  #signal(signal: TreeSignal): void {
    const pid = this.#child?.pid;
    // The whole group, even when its leader (a wrapper such as npx) has exited already.
    if (pid && this.#system) signalProcessTree(pid, signal, this.#system);
  }

  #onLine(line: string): void {
    if (line.trim() === "") return;
    let message: JSONRPCMessage;
    try {
      message = this.#sdk.deserializeMessage(line);
    } catch {
      // Servers that log to stdout: reported, the connection goes on.
      this.onerror?.(new Error(`MCP server ${this.#label} wrote a line that is not a JSON-RPC message: ${line.slice(0, 200)}`));
      return;
    }
    this.onmessage?.(message);
  }

  #onStderr(line: string): void {
    this.stderrTail.push(line);
    if (this.stderrTail.length > STDERR_KEPT_LINES) this.stderrTail.shift();
    this.#writeStderr(`[mcp ${this.#label}] ${line}\n`);
  }

  #finish(): void {
    this.#closed = true;
    if (this.#child) running.delete(this.#child);
    this.onclose?.();
  }
}

async function exitsWithin(exited: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([exited.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
