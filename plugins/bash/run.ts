/**
 * Runs one shell command and collects its output: the process-running core shared by the `bash`
 * LLM tool and the `bash` RPC command. The shell runs as the root of its own process tree so a
 * timeout or cancel can kill all of it (SIGTERM, then SIGKILL after a grace period). Each channel
 * is cleaned (UTF-8, ANSI and control characters) as it arrives; stdout and stderr are merged in
 * arrival order; memory stays bounded by OutputTail however much the command prints, and reading
 * pauses while the full-output file or the consumer of `onOutput` lags behind.
 */
import { stat } from "node:fs/promises";
import { constants } from "node:os";
import type { TruncationResult } from "../../lib/truncate/index.js";
import { OutputCleaner, withNulNote } from "./output-cleaner.js";
import { OutputTail } from "./output-tail.js";
import { signalProcessTree, treeSpawnOptions, type TreeSignal } from "../../lib/process-tree/index.js";

export type OutputChannel = "stdout" | "stderr";

export interface RunShellOptions {
  command: string;
  cwd: string;
  /** Shell binary, run as `<shell> -c <command>` (see shell.ts for how it is chosen). */
  shell: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  /** Clean text per channel as it arrives; all of it, in order, is exactly the complete output. */
  onOutput?(channel: OutputChannel, text: string): void;
  /** Asked after each piece of output: a promise means "slow down", and reading pauses until it settles. */
  backpressure?(): Promise<void> | undefined;
  /**
   * Called after each piece of output is recorded. `renderTail()` returns the tail-truncated
   * output so far; it joins up to ~50 KiB, so throttle before calling it.
   */
  onProgress?(renderTail: () => string): void;
  /** Time between SIGTERM and SIGKILL when killing the tree. */
  killGraceMs?: number;
  /** Directory for the full-output file (tests). Defaults to os.tmpdir(). */
  tempDir?: string;
  /**
   * Rewrites the process before it starts (the sandbox: the same command inside bubblewrap); a
   * rejection is the command's failure, and nothing runs.
   */
  confine?(spawn: {
    file: string;
    args: string[];
    cwd: string;
    env: NodeJS.ProcessEnv;
  }): Promise<{ file: string; args: string[]; cwd: string; env: NodeJS.ProcessEnv; release?(): void }>;
}

export interface RunShellResult {
  /** The tail of the merged output (at most 2000 lines / 50 KiB). */
  output: string;
  /** Absent when the command was cancelled or timed out. Death by signal N is 128+N, as in shells. */
  exitCode: number | undefined;
  cancelled: boolean;
  timedOut: boolean;
  truncated: boolean;
  /** File holding the complete output (written before this resolves); set only when truncated. */
  fullOutputPath: string | null;
  totalLines: number;
  totalBytes: number;
  truncation: TruncationResult;
}

const DEFAULT_KILL_GRACE_MS = 1000;
const MAX_TIMER_MS = 2 ** 31 - 1;
/** After the shell exits, how long background jobs still holding its pipes may keep them. */
const EXIT_LINGER_MS = 250;
/** After SIGKILL, give up waiting for pipes held by processes that escaped the tree. */
const FORCE_CLOSE_MS = 1000;

export async function runShellCommand(options: RunShellOptions): Promise<RunShellResult> {
  const { signal } = options;
  // Loaded on first use: node:child_process costs a few ms of startup otherwise.
  const { spawn } = await import("node:child_process");
  if (!(await isDirectory(options.cwd))) throw new Error(`Working directory does not exist: ${options.cwd}`);
  const tail = new OutputTail({ tempDir: options.tempDir });
  const cleaners = { stdout: new OutputCleaner(), stderr: new OutputCleaner() };
  const result = async (exitCode: number | undefined, cancelled: boolean, timedOut: boolean): Promise<RunShellResult> => {
    await tail.close();
    const truncation = tail.render();
    const { totalLines, totalBytes, truncated, fullOutputPath } = tail;
    const output = withNulNote(truncation.content, cleaners.stdout.nulBytes + cleaners.stderr.nulBytes);
    return { output, exitCode, cancelled, timedOut, truncated, fullOutputPath, totalLines, totalBytes, truncation };
  };
  if (signal?.aborted) return result(undefined, true, false);
  const plain = { file: options.shell, args: ["-c", options.command], cwd: options.cwd, env: options.env ?? process.env };
  let launch: typeof plain & { release?(): void } = plain;
  if (options.confine) {
    try {
      launch = await options.confine(plain);
    } catch (error) {
      await tail.close();
      throw error;
    }
  }
  if (signal?.aborted) {
    launch.release?.();
    return result(undefined, true, false);
  }

  return new Promise<RunShellResult>((resolve, reject) => {
    const child = spawn(launch.file, launch.args, {
      cwd: launch.cwd,
      env: launch.env,
      stdio: ["ignore", "pipe", "pipe"],
      ...treeSpawnOptions(process.platform),
    });
    const system = { platform: process.platform, kill: (pid: number, sig: TreeSignal) => process.kill(pid, sig), spawn };
    const signalTree = (sig: TreeSignal) => child.pid !== undefined && signalProcessTree(child.pid, sig, system);
    let cancelled = false;
    let timedOut = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];

    // Reading pauses while anyone downstream is congested, and resumes when all have caught up.
    // (Once the shell exits, Node resumes its pipes by itself to flush them: nothing is lost.)
    let holds = 0;
    const holdUntil = (wait: Promise<void>) => {
      if (holds++ === 0) {
        child.stdout.pause();
        child.stderr.pause();
      }
      const release = () => {
        if (--holds > 0 || settled) return;
        child.stdout.resume();
        child.stderr.resume();
      };
      wait.then(release, release);
    };

    const record = (channel: OutputChannel, text: string) => {
      if (text === "") return;
      options.onOutput?.(channel, text);
      if (!tail.append(text)) holdUntil(new Promise<void>((done) => tail.onceDrain(done)));
      const pressure = options.backpressure?.();
      if (pressure) holdUntil(pressure);
      options.onProgress?.(() => tail.render().content);
    };
    child.stdout.on("data", (bytes: Buffer) => record("stdout", cleaners.stdout.push(bytes)));
    child.stderr.on("data", (bytes: Buffer) => record("stderr", cleaners.stderr.push(bytes)));

    const killTree = (reason: "cancel" | "timeout") => {
      if (settled || cancelled || timedOut) return;
      if (reason === "cancel") cancelled = true;
      else timedOut = true;
      // The shell is gone (its pid may already be reused): stop reading what it left behind.
      if (exit) return forceClose();
      const grace = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
      signalTree("SIGTERM");
      // Not in `timers`: it must still fire if the pipes close first while a member ignores SIGTERM.
      setTimeout(() => signalTree("SIGKILL"), grace).unref();
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

    function stopListening() {
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }

    function finish() {
      if (settled) return;
      stopListening();
      record("stdout", cleaners.stdout.end());
      record("stderr", cleaners.stderr.end());
      const stopped = cancelled || timedOut;
      result(stopped ? undefined : exitCodeOf(exit), cancelled, timedOut).then(resolve, reject);
    }

    // The sandbox's turn ends with the process (its namespace, and every process in it, is gone).
    child.on("exit", (code, exitSignal) => {
      launch.release?.();
      exit = { code, signal: exitSignal };
      timers.push(setTimeout(forceClose, EXIT_LINGER_MS));
    });
    child.on("close", finish);
    child.on("error", (error) => {
      launch.release?.();
      if (settled) return;
      stopListening();
      void tail.close();
      reject(new Error(`Failed to run shell ${options.shell}: ${error.message}`));
    });
  });
}

function exitCodeOf(exit: { code: number | null; signal: NodeJS.Signals | null } | null): number | undefined {
  if (!exit) return undefined;
  if (exit.code !== null) return exit.code;
  return exit.signal ? 128 + (constants.signals[exit.signal] ?? 0) : undefined;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
