/**
 * `pi.exec(command, args, { signal, timeout, cwd })`: runs a program directly (no shell) and
 * resolves with its output, `{ stdout, stderr, code, killed }`. A timeout or an abort kills it
 * (SIGTERM, then SIGKILL after a grace period) and resolves with `killed: true`; a program that
 * cannot start resolves with code 1 and the reason on stderr. It never rejects. With a sandbox in
 * force the program runs inside it, as the model's commands do (an extension's tool may run what
 * the model asked for); a command the sandbox refuses resolves with code 1 and the reason.
 */
import type { SandboxApi } from "../sandbox/api.js";
import type { ExecOptions, ExecResult } from "./types/api.js";

const KILL_GRACE_MS = 3000;

export async function exec(command: string, args: readonly string[], cwd: string, options: ExecOptions = {}, sandbox?: SandboxApi): Promise<ExecResult> {
  const plain = { file: String(command), args: args.map(String), cwd: options.cwd ?? cwd, env: process.env };
  let launch: typeof plain & { release?(): void } = plain;
  if (sandbox?.active) {
    try {
      launch = await sandbox.confine(plain, { command: [plain.file, ...plain.args].join(" "), ...(options.signal ? { signal: options.signal } : {}) });
    } catch (error) {
      return { stdout: "", stderr: error instanceof Error ? error.message : String(error), code: 1, killed: false };
    }
  }
  // Loaded on the first call: most extensions never run a program, and every start with one pays for the module otherwise.
  const { spawn } = await import("node:child_process");
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    let killed = false;
    let child: import("node:child_process").ChildProcess;
    try {
      child = spawn(launch.file, launch.args, { cwd: launch.cwd, env: launch.env, shell: false, stdio: ["ignore", "pipe", "pipe"] });
    } catch (error) {
      launch.release?.();
      resolve({ stdout: "", stderr: error instanceof Error ? error.message : String(error), code: 1, killed: false });
      return;
    }
    const kill = () => {
      if (killed || child.exitCode !== null) return;
      killed = true;
      child.kill("SIGTERM");
      setTimeout(() => child.exitCode === null && child.kill("SIGKILL"), KILL_GRACE_MS).unref();
    };
    const timer = options.timeout && options.timeout > 0 ? setTimeout(kill, options.timeout) : undefined;
    if (options.signal?.aborted) kill();
    else options.signal?.addEventListener("abort", kill, { once: true });
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    let done = false;
    const finish = (code: number) => {
      if (done) return;
      done = true;
      launch.release?.();
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", kill);
      resolve({ stdout, stderr, code, killed });
    };
    child.once("error", (error) => {
      stderr += error.message;
      finish(1);
    });
    // A signal death has no exit code: 128 + SIGTERM's number, as a shell reports it.
    child.once("close", (code, signal) => finish(code ?? (signal ? 143 : 1)));
  });
}
