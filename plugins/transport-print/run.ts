/**
 * One print or JSON run: the prompts are sent one after another through the host's scheduler
 * (each waits until the agent has settled: retries and continuations included), then the
 * process exits. Print mode writes the final assistant text; JSON mode the session header and
 * then every event as one line, in RPC's shapes. A refused prompt or a failed run is one line on
 * stderr and exit code 1. Print mode says on stderr when a failed request is retried (otherwise
 * the wait is silent) and names the server a connection error was about.
 */
import { claimStdout } from "../../lib/stdout/index.js";
import type { OutEvent, TransportHost } from "../../kernel/index.js";
import type { AgentMessage } from "../../lib/llm/index.js";
import { RecordWriter } from "../../lib/jsonl/index.js";
import { promptTexts, readPipedStdin } from "./prompts.js";

export type OutputMode = "print" | "json";

/** Resolves `next()` promises when the agent settles (the `agent_settled` hook). */
export class SettledSignal {
  #waiters: (() => void)[] = [];

  next(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  fire(): void {
    for (const resolve of this.#waiters.splice(0)) resolve();
  }
}

export interface RunOptions {
  mode: OutputMode;
  settled: SettledSignal;
  /** The session header JSON mode writes first (pi's first line). */
  header(): object | undefined;
  /** Whether a run is going (an extension command's prompt may have started one). */
  busy(): boolean;
  /** The base URL of the current model (shown redacted), named in connection errors. */
  modelUrl(): string | undefined;
  /** Why the session is not on disk at exit (a write that failed and never worked again), if so. */
  unsaved?(): string | undefined;
}

export async function runPrompts(host: TransportHost, options: RunOptions): Promise<number> {
  const prompts = promptTexts(host.config.cli.positionals, await readPipedStdin(), options.mode);
  const stdout = claimStdout();
  const writer = new RecordWriter({ write: (parts) => stdout.writeParts(parts), onceDrain: (resolve) => stdout.onceDrain(resolve) });
  let exitCode = 0;
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    // A reader that went away (`| head`) ends the run; any other write failure is reported.
    if (error.code !== "EPIPE") host.log.error(`cannot write to stdout (${error.code ?? "error"}): ${error.message}`);
    exitCode = 1;
    void host.shutdown("eof");
  });

  let lastAssistant: AgentMessage | undefined;
  host.events.subscribe((event: OutEvent) => {
    if (event.type === "message_end" && event.message.role === "assistant") lastAssistant = event.message;
    if (options.mode === "json") writer.writeRecord(event);
    else if (event.type === "auto_retry_start") process.stderr.write(`atomic: ${retryLine(event, options.modelUrl())}\n`);
  });
  if (options.mode === "json") {
    host.events.addPressureSource(() => writer.pressure());
    const header = options.header();
    if (header) writer.writeRecord(header);
  }

  const closing = host.closing.then(() => "closing" as const);
  for (const message of prompts) {
    const settled = options.settled.next();
    let refused: string | undefined;
    let handled = false;
    await host.submit(
      { type: "prompt", message },
      {
        source: options.mode,
        respond: (response) => {
          refused = response.success ? undefined : response.error;
          handled = response.success && (response.data as { disposition?: unknown } | undefined)?.disposition === "handled";
        },
      },
    );
    if (refused !== undefined) {
      exitCode = fail(refused);
      break;
    }
    // An extension command handled it: nothing settles unless the command started a run.
    if (handled && !options.busy()) continue;
    if ((await Promise.race([settled, closing])) === "closing") break;
    const failure = failureOf(lastAssistant);
    if (failure) {
      exitCode = fail(withServer(failure, options.modelUrl()));
      break;
    }
  }
  if (options.mode === "print" && exitCode === 0 && lastAssistant) stdout.write(`${textOf(lastAssistant)}\n`);
  await host.shutdown("exit");
  // The answer was printed, but a session that was asked for and not written is a failure to say.
  const unsaved = options.unsaved?.();
  if (unsaved !== undefined && exitCode === 0) exitCode = fail(`the session was not saved: ${unsaved}`);
  await stdout.flush();
  return exitCode;
}

function fail(message: string): number {
  process.stderr.write(`atomic: ${message}\n`);
  return 1;
}

/** Network failures name no server in most SDKs' wording ("Connection error."). */
const CONNECTION_ERROR = /connection|\bE(?:CONNREFUSED|CONNRESET|NOTFOUND|AI_AGAIN|TIMEDOUT|HOSTUNREACH|NETUNREACH)\b|fetch failed|socket hang up|network|timed? ?out/i;

/** A connection error with the server it was about, unless the message names it already. */
export function withServer(message: string, url: string | undefined): string {
  if (!url || !CONNECTION_ERROR.test(message)) return message;
  // A catalog template (`{region}`, `{resource}`) is not where the request went: the frame's own
  // text names the host it reached.
  if (/\{[A-Za-z_]+\}/.test(url)) return message;
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    // Not a URL (a plugin's own scheme): matched as given.
  }
  return message.includes(host) ? message : `${message} (server: ${url})`;
}

/** `Connection error. (server: ...); retrying in 2s (attempt 1 of 3)`. */
export function retryLine(event: { attempt: number; maxAttempts: number; delayMs: number; errorMessage: string }, url: string | undefined): string {
  const delay = event.delayMs < 1000 ? `${Math.round(event.delayMs)}ms` : `${Number((event.delayMs / 1000).toFixed(1))}s`;
  return `${withServer(event.errorMessage, url)}; retrying in ${delay} (attempt ${event.attempt} of ${event.maxAttempts})`;
}

/** Why a final assistant message is not an answer (provider error, abort), or undefined. */
function failureOf(message: AgentMessage | undefined): string | undefined {
  if (message?.role !== "assistant") return undefined;
  if (message.stopReason === "error") return message.errorMessage ?? "The request failed";
  if (message.stopReason === "aborted") return message.errorMessage ?? "The request was aborted";
  return undefined;
}

function textOf(message: AgentMessage): string {
  if (message.role !== "assistant") return "";
  return message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}
