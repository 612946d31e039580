/**
 * Runs a `!command` secret (an API key from a password manager) in its own process group (a tree
 * taskkill can walk on Windows), so a timeout or an abort kills the command and everything it started. Errors name what the value
 * was for and the exit status, never the command text or its output: either may hold the secret.
 */
import { signalProcessTree, treeSpawnOptions } from "../../lib/process-tree/index.js";

const COMMAND_TIMEOUT_MS = 10_000;
const MAX_OUTPUT_BYTES = 64 * 1024;

export interface SecretCommandOptions {
  env: NodeJS.ProcessEnv;
  /** Named in errors: "apiKey of provider openrouter". */
  label: string;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** The command's trimmed stdout; undefined when it prints nothing. */
export async function runSecretCommand(command: string, options: SecretCommandOptions): Promise<string | undefined> {
  // Loaded on first use: node:child_process costs a few ms of startup otherwise.
  const { spawn } = await import("node:child_process");
  if (options.signal?.aborted) throw new Error(`Command for ${options.label} aborted`);
  const platform = process.platform;
  return new Promise((resolve, reject) => {
    const shell = platform === "win32" ? (process.env.ComSpec ?? "cmd.exe") : "/bin/sh";
    const args = platform === "win32" ? ["/d", "/s", "/c", command] : ["-c", command];
    const child = spawn(shell, args, { env: { ...process.env, ...options.env }, stdio: ["ignore", "pipe", "ignore"], ...treeSpawnOptions(platform) });
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      outcome();
    };
    // The whole tree: the shell and whatever it started (a `sleep`, a password manager); on
    // Windows through taskkill /T, which has no process groups.
    const kill = () => {
      if (child.pid !== undefined) signalProcessTree(child.pid, "SIGKILL", { platform, kill: (pid, signal) => process.kill(pid, signal), spawn });
    };
    const onAbort = () => {
      kill();
      finish(() => reject(new Error(`Command for ${options.label} aborted`)));
    };
    const timeoutMs = options.timeoutMs ?? COMMAND_TIMEOUT_MS;
    const timer = setTimeout(() => {
      kill();
      finish(() => reject(new Error(`Command for ${options.label} timed out after ${timeoutMs / 1000} s`)));
    }, timeoutMs);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_OUTPUT_BYTES) chunks.push(chunk);
    });
    child.once("error", (error: NodeJS.ErrnoException) => finish(() => reject(new Error(`Command for ${options.label} could not start (${error.code ?? "error"})`))));
    child.once("close", (code, signal) => {
      if (code !== 0) {
        finish(() => reject(new Error(`Command for ${options.label} failed (${code !== null ? `exit ${code}` : (signal ?? "error")})`)));
        return;
      }
      const text = Buffer.concat(chunks).toString("utf8").trim();
      finish(() => resolve(text === "" ? undefined : text));
    });
  });
}
