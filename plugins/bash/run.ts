/**
 * Runs one shell command and collects its output: the process-running core shared by the `bash`
 * LLM tool and (later) the `bash` RPC command. The shell runs detached in its own process group
 * so a timeout or abort can kill the whole tree (SIGTERM, then SIGKILL after a grace period).
 * stdout and stderr are merged in arrival order and ANSI-stripped; memory stays bounded by
 * OutputTail no matter how much the command prints.
 */
import { existsSync, statSync } from "node:fs";
import { constants } from "node:os";
import { StringDecoder } from "node:string_decoder";
import stripAnsi from "strip-ansi";
import type { TruncationResult } from "../../lib/truncate/index.js";
import { OutputTail } from "./output-tail.js";

export type OutputChannel = "stdout" | "stderr";

export interface RunShellOptions {
  command: string;
  cwd: string;
  /** Shell binary, run as `<shell> -c <command>`. Defaults to /bin/bash (or /bin/sh without bash). */
  shell?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  /** Raw decoded text per channel as it arrives (ANSI codes included), e.g. for streaming deltas. */
  onChunk?(channel: OutputChannel, text: string): void;
  /**
   * Called after each piece of output is recorded. `renderTail()` returns the tail-truncated,
   * ANSI-stripped output so far; it joins up to ~50 KiB, so throttle before calling it.
   */
  onProgress?(renderTail: () => string): void;
  /** Time between SIGTERM and SIGKILL when killing the tree. */
  killGraceMs?: number;
  /** Directory for the full-output file (tests). Defaults to os.tmpdir(). */
  tempDir?: string;
}

export interface RunShellResult {
  /** The tail of the merged output (at most 2000 lines / 50 KiB). */
  output: string;
  /** Absent when the command was cancelled or timed out. Death by signal N is 128+N, as in shells. */
  exitCode: number | undefined;
  cancelled: boolean;
  timedOut: boolean;
  truncated: boolean;
  /** File holding the complete output; set only when truncated. */
  fullOutputPath: string | null;
  totalLines: number;
  totalBytes: number;
  truncation: TruncationResult;
}

const DEFAULT_KILL_GRACE_MS = 1000;
const MAX_TIMER_MS = 2 ** 31 - 1;
/** After the shell exits, how long background jobs still holding its pipes may keep them. */
const EXIT_LINGER_MS = 250;
/** After SIGKILL, give up waiting for pipes held by processes that escaped the group. */
const FORCE_CLOSE_MS = 1000;

export function defaultShell(): string {
  return existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh";
}

export async function runShellCommand(options: RunShellOptions): Promise<RunShellResult> {
  const { signal } = options;
  // Loaded on first use: node:child_process costs a few ms of startup otherwise.
  const { spawn } = await import("node:child_process");
  if (!isDirectory(options.cwd)) return Promise.reject(new Error(`Working directory does not exist: ${options.cwd}`));
  const tail = new OutputTail({ tempDir: options.tempDir });
  const result = async (exitCode: number | undefined, cancelled: boolean, timedOut: boolean): Promise<RunShellResult> => {
    await tail.close();
    const truncation = tail.render();
    const { totalLines, totalBytes, truncated, fullOutputPath } = tail;
    return { output: truncation.content, exitCode, cancelled, timedOut, truncated, fullOutputPath, totalLines, totalBytes, truncation };
  };
  if (signal?.aborted) return result(undefined, true, false);

  return new Promise((resolve, reject) => {
    const child = spawn(options.shell ?? defaultShell(), ["-c", options.command], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let cancelled = false;
    let timedOut = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];
    const decoders = { stdout: new StringDecoder("utf8"), stderr: new StringDecoder("utf8") };
    const pendingEscape = { stdout: "", stderr: "" };

    const record = (channel: OutputChannel, text: string, final: boolean) => {
      const [complete, pending] = final ? [pendingEscape[channel] + text, ""] : splitTrailingEscape(pendingEscape[channel] + text);
      pendingEscape[channel] = pending;
      if (complete === "") return;
      if (!tail.append(stripAnsi(complete))) {
        // The full-output file fell behind: stop reading until it catches up.
        child.stdout.pause();
        child.stderr.pause();
        tail.onceDrain(() => {
          child.stdout.resume();
          child.stderr.resume();
        });
      }
      options.onProgress?.(() => tail.render().content);
    };
    const onData = (channel: OutputChannel) => (bytes: Buffer) => {
      const text = decoders[channel].write(bytes);
      if (text === "") return;
      options.onChunk?.(channel, text);
      record(channel, text, false);
    };
    child.stdout.on("data", onData("stdout"));
    child.stderr.on("data", onData("stderr"));

    const killTree = (reason: "cancel" | "timeout") => {
      if (exit || settled) return;
      if (reason === "cancel") cancelled = true;
      else timedOut = true;
      const grace = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
      signalGroup(child.pid, "SIGTERM");
      // Not in `timers`: it must still fire if the pipes close first while a member ignores SIGTERM.
      setTimeout(() => signalGroup(child.pid, "SIGKILL"), grace).unref();
      timers.push(setTimeout(forceClose, grace + FORCE_CLOSE_MS));
    };
    const onAbort = () => killTree("cancel");
    signal?.addEventListener("abort", onAbort, { once: true });
    if (options.timeoutMs !== undefined && options.timeoutMs > 0) {
      // setTimeout fires after 1 ms for delays past 2^31-1 ms (~24.8 days): clamp, never kill at once.
      timers.push(setTimeout(() => killTree("timeout"), Math.min(options.timeoutMs, MAX_TIMER_MS)));
    }

    // Stop reading pipes that outlived the shell (e.g. `server &`), so the result is not held hostage.
    function forceClose() {
      child.stdout.destroy();
      child.stderr.destroy();
      finish();
    }

    function finish() {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      for (const channel of ["stdout", "stderr"] as const) {
        const rest = decoders[channel].end();
        if (rest) options.onChunk?.(channel, rest);
        record(channel, rest, true);
      }
      const stopped = cancelled || timedOut;
      result(stopped ? undefined : exitCodeOf(exit), cancelled, timedOut).then(resolve, reject);
    }

    child.on("exit", (code, exitSignal) => {
      exit = { code, signal: exitSignal };
      timers.push(setTimeout(forceClose, EXIT_LINGER_MS));
    });
    child.on("close", finish);
    child.on("error", (error) => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      void tail.close();
      reject(new Error(`Failed to run shell ${options.shell ?? defaultShell()}: ${error.message}`));
    });
  });
}

function exitCodeOf(exit: { code: number | null; signal: NodeJS.Signals | null } | null): number | undefined {
  if (!exit) return undefined;
  if (exit.code !== null) return exit.code;
  return exit.signal ? 128 + (constants.signals[exit.signal] ?? 0) : undefined;
}

/** Signals the whole process group (the shell was spawned detached, so its pid is the group id). */
function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

/**
 * Holds back an escape sequence cut off at the end of a chunk (e.g. `\x1b[3`), so it is stripped
 * once the rest arrives instead of leaking into the output as garbage.
 */
function splitTrailingEscape(text: string): [string, string] {
  const start = text.lastIndexOf("\x1b");
  if (start === -1 || text.length - start > 64) return [text, ""];
  const rest = text.slice(start);
  return stripAnsi(rest) === rest ? [text.slice(0, start), rest] : [text, ""];
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
