/**
 * `atomic --mode rpc --connect unix:PATH`: plain `--mode rpc` on this process's stdin/stdout,
 * served by one agent of a running `atomic serve` (docs/server.md, Old clients). It opens an
 * agent (or attaches to `--agent`), then relays lines both ways: the handle added to each
 * command, the server's envelope and records taken off what comes back. The end of input detaches
 * (the agent stays) once every command sent has its answer, or with `--close-on-exit` closes the
 * agent as a `--mode rpc` process ends its own (closing events, bash cancelled, session flushed).
 * A signal does not wait for answers: it detaches (or closes) at once, then exits 143/130/129.
 * It boots no agent of its own: the CLI loads it before anything else.
 */
import { connect, type Socket } from "node:net";
import { join, resolve } from "node:path";
import type { CliIo } from "../../lib/cli-io/index.js";
import { LineReader } from "../../lib/jsonl/index.js";
import { claimStdout, type ClaimedStdout } from "../../lib/stdout/index.js";
import { BRIDGE_HELP, BridgeUsageError, parseBridgeArgs, type BridgeOptions } from "./bridge-args.js";
import { BRIDGE_ID_PREFIX, classify, route } from "./bridge-lines.js";
import { namedAsFlags } from "./open-fields.js";

const SIGNAL_EXIT_CODES = { SIGTERM: 143, SIGINT: 130, SIGHUP: 129 } as const;

interface OwnResponse {
  success: boolean;
  error?: string;
  code?: string;
  data?: Record<string, unknown>;
}

export async function runBridge(argv: string[], io: CliIo): Promise<number> {
  let options: BridgeOptions;
  try {
    options = parseBridgeArgs(argv);
  } catch (error) {
    if (!(error instanceof BridgeUsageError)) throw error;
    io.stderr.write(`atomic: ${error.message}\n`);
    return 2;
  }
  if (options.help) {
    io.stdout.write(BRIDGE_HELP);
    return 0;
  }
  if (options.ignored.length > 0) io.stderr.write(`[atomic] warning: ignoring ${options.ignored.join(", ")}: pi's terminal-UI options have no effect in Atomic\n`);
  if (!options.connect.startsWith("unix:")) {
    io.stderr.write(`atomic: --connect takes unix:PATH (got "${options.connect}")\n`);
    return 2;
  }
  const given = options.connect.slice("unix:".length);
  const path = given === "" ? join(io.agentDir, "serve", "serve.sock") : resolve(io.cwd, given);
  const socket = await new Promise<Socket | Error>((done) => {
    const attempt = connect(path);
    attempt.once("connect", () => done(attempt));
    attempt.once("error", (error) => done(error));
  });
  if (socket instanceof Error) {
    io.stderr.write(`atomic: cannot connect to unix:${path}: ${socket.message}${noServerHint(socket, options.connect)}\n`);
    return 1;
  }
  return new Bridge(socket, claimStdout(), options, io).run();
}

/** What a user who has not started the server yet (or whose server stopped) needs to read next. */
function noServerHint(error: Error, url: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== "ENOENT" && code !== "ECONNREFUSED") return "";
  return `\n  No server is listening there. Start one first, in another terminal: atomic serve --listen ${url}`;
}

class Bridge {
  readonly #socket: Socket;
  readonly #stdout: ClaimedStdout;
  readonly #options: BridgeOptions;
  readonly #io: CliIo;
  readonly #own = new Map<string, (response: OwnResponse) => void>();
  /** The client's ids that look like the bridge's own: never picked for one of its commands. */
  readonly #clientIds = new Set<string>();
  #nextId = 1;
  #agent = "";
  /** Client commands sent and not answered yet. */
  #pending = 0;
  #onAnswered: (() => void) | undefined;
  #ending = false;
  #leaving: Promise<void> | undefined;
  #greeted = false;
  #expectedEnd = false;
  #signalCode: number | undefined;
  #hello!: (first: string) => void;
  #finish!: (code: number) => void;
  readonly #done = new Promise<number>((resolve) => (this.#finish = resolve));

  constructor(socket: Socket, stdout: ClaimedStdout, options: BridgeOptions, io: CliIo) {
    this.#socket = socket;
    this.#stdout = stdout;
    this.#options = options;
    this.#io = io;
  }

  async run(): Promise<number> {
    const hello = new Promise<string>((resolve) => (this.#hello = resolve));
    const reader = new LineReader((line) => this.#fromServer(line));
    this.#socket.on("data", (chunk: Buffer) => reader.push(chunk));
    this.#socket.on("error", () => undefined);
    this.#socket.once("close", () => this.#lost());
    const first = await Promise.race([hello, this.#done.then(() => "")]);
    if (!first.startsWith('{"type":"server_hello"')) {
      if (first) this.#io.stderr.write(`atomic: the server refused the connection: ${(JSON.parse(first) as OwnResponse).error ?? first}\n`);
      return this.#exit(1);
    }
    const opened = await this.#openAgent();
    if (!opened.success) {
      // It was given flags, not agent_open's fields: its errors name them so.
      this.#io.stderr.write(`atomic: ${opened.error ? namedAsFlags(opened.error) : "the server did not open the agent"}\n`);
      return this.#exit(opened.code === "invalid_request" ? 2 : 1);
    }
    this.#agent = String(opened.data?.agent);
    this.#relayInput();
    for (const [signal, code] of Object.entries(SIGNAL_EXIT_CODES)) process.on(signal, () => this.#signalled(code));
    const code = await this.#done;
    return this.#signalCode ?? code;
  }

  #openAgent(): Promise<OwnResponse> {
    const { agent, resume, cwd, provider, model, thinkingLevel, noSession, name, sandbox } = this.#options;
    if (agent !== undefined) return this.#command({ type: "attach", agent });
    const fields = { resume, provider, model, thinkingLevel, noSession, name, sandbox };
    return this.#command({ type: "agent_open", cwd: resolve(this.#io.cwd, cwd ?? "."), ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) });
  }

  #command(record: Record<string, unknown>): Promise<OwnResponse> {
    // The bridge's commands come before the client's first and after its last: an id the client never sent answers none of them.
    let id: string;
    do id = `${BRIDGE_ID_PREFIX}${this.#nextId++}`;
    while (this.#clientIds.has(id));
    return new Promise((resolve) => {
      this.#own.set(id, resolve);
      this.#socket.write(`${JSON.stringify({ ...record, id })}\n`);
    });
  }

  #fromServer(line: string): void {
    if (!this.#greeted) {
      // The greeting, or the server's refusal (at its connection limit).
      this.#greeted = true;
      return this.#hello(line);
    }
    const record = classify(line);
    switch (record.kind) {
      case "server":
        if (record.type === "server_shutting_down") this.#expectedEnd = true;
        else if (record.type === "agent_closed" && line.includes(`"agent":"${this.#agent}"`)) this.#stop();
        else if (record.type === "connection_closing") this.#io.stderr.write(`atomic: the server closes this connection: ${line}\n`);
        return;
      case "own-response":
        // Parsed with its envelope: a failure's `code` tells a usage mistake (exit 2) from the rest.
        if (this.#ownResponse(line)) return;
        // The client's own id, shaped like the bridge's: its response.
        this.#answered(record.text);
        return;
      case "response":
        this.#answered(record.text);
        return;
      case "event":
        this.#write(record.text);
    }
  }

  /** Hands a response to the bridge's command waiting for it; false when none waits for its id. */
  #ownResponse(text: string): boolean {
    const response = JSON.parse(text) as OwnResponse & { id: unknown };
    const waiting = typeof response.id === "string" ? this.#own.get(response.id) : undefined;
    if (!waiting) return false;
    this.#own.delete(response.id as string);
    waiting(response);
    return true;
  }

  #answered(text: string): void {
    this.#write(text);
    this.#pending--;
    if (this.#pending === 0) this.#onAnswered?.();
  }

  #write(text: string): void {
    if (this.#stdout.write(`${text}\n`)) return;
    // The client reads slowly: stop reading the server (it holds a bounded backlog for us).
    this.#socket.pause();
    this.#stdout.onceDrain(() => this.#socket.resume());
  }

  #relayInput(): void {
    const stdin = this.#io.stdin;
    const reader = new LineReader((line) => {
      if (this.#ending) return;
      const routed = route(line, this.#agent);
      if (routed.answered) this.#pending++;
      if (routed.id?.startsWith(BRIDGE_ID_PREFIX)) this.#clientIds.add(routed.id);
      if (!this.#socket.write(`${routed.text}\n`)) {
        stdin.pause();
        this.#socket.once("drain", () => stdin.resume());
      }
    });
    stdin.on("data", (chunk: Buffer) => reader.push(chunk));
    stdin.once("end", () => {
      reader.end();
      void this.#endOfInput();
    });
    process.stdout.on("error", () => void this.#endOfInput());
  }

  /** As a `--mode rpc` process at the end of its input: every command read is answered first. */
  async #endOfInput(): Promise<void> {
    if (this.#ending) return;
    this.#ending = true;
    // The server's agent_close answers what is queued itself, then aborts the run with its closing events.
    if (!this.#options.closeOnExit && this.#pending > 0) await new Promise<void>((resolve) => (this.#onAnswered = resolve));
    await this.#leave();
  }

  /**
   * SIGTERM, SIGINT, SIGHUP: as `--mode rpc` on a signal, the same end as the end of input
   * without waiting for what the agent has not answered yet (a bash command may take any time);
   * detached, the agent goes on with it. A second signal leaves at once.
   */
  #signalled(code: number): void {
    if (this.#signalCode !== undefined) process.exit(this.#signalCode);
    this.#signalCode = code;
    this.#ending = true;
    void this.#leave();
  }

  /** Detaches from the agent, or closes it (`--close-on-exit`), once; then ends. */
  #leave(): Promise<void> {
    this.#leaving ??= this.#command({ type: this.#options.closeOnExit ? "agent_close" : "detach", agent: this.#agent }).then(() => this.#stop());
    return this.#leaving;
  }

  #stop(): void {
    this.#expectedEnd = true;
    void this.#exit(0).then((code) => this.#finish(code));
  }

  #lost(): void {
    for (const resolve of this.#own.values()) resolve({ success: false, error: "the connection to the server was lost" });
    this.#own.clear();
    if (!this.#expectedEnd) this.#io.stderr.write("atomic: the connection to the server was lost\n");
    void this.#exit(this.#expectedEnd ? 0 : 1).then((code) => this.#finish(code));
  }

  async #exit(code: number): Promise<number> {
    await this.#stdout.flush();
    this.#socket.end();
    return code;
  }
}
