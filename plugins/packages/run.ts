/**
 * Running the user's own registry clients (npm, git) for installs. Never on our stdout (it is the
 * protocol's): a command's output goes to stderr (`atomic install`, where people watch it) or is
 * captured (at startup), keeping only its end for the error message. Each command runs in its own
 * process group so a deadline stops it and everything it started; git never asks for a password.
 */
import { spawn } from "node:child_process";
import { signalProcessTree, treeSpawnOptions } from "../../lib/process-tree/index.js";

export type CommandOutput = "stderr" | "capture";

export interface RunOptions {
  cwd?: string;
  env: NodeJS.ProcessEnv;
  output: CommandOutput;
  /** Absolute time (Date.now()) by which the command must end; it is killed then. */
  deadline?: number;
}

export type CommandRunner = (command: string, args: readonly string[], options: RunOptions) => Promise<string>;

const TAIL_CHARS = 4_000;

/** Resolves with the captured output (empty when it went to stderr); rejects with a message naming the command. */
export const runCommand: CommandRunner = (command, args, options) =>
  new Promise((resolve, reject) => {
    const label = [command, ...args].join(" ");
    const remaining = options.deadline === undefined ? undefined : options.deadline - Date.now();
    if (remaining !== undefined && remaining <= 0) return reject(new Error(`${label}: no time left to run it`));
    const child = spawn(command, [...args], {
      cwd: options.cwd,
      env: { ...options.env, GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: options.env.GIT_ASKPASS ?? "", npm_config_yes: "true" },
      stdio: ["ignore", options.output === "stderr" ? 2 : "pipe", options.output === "stderr" ? 2 : "pipe"],
      ...treeSpawnOptions(process.platform),
      shell: process.platform === "win32",
    });
    let tail = "";
    const keep = (chunk: Buffer) => {
      tail = (tail + chunk.toString("utf8")).slice(-TAIL_CHARS);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    let timedOut = false;
    const timer =
      remaining === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            if (child.pid !== undefined) signalProcessTree(child.pid, "SIGKILL", { platform: process.platform, kill: process.kill.bind(process), spawn });
          }, remaining);
    child.once("error", (error) => {
      clearTimeout(timer);
      const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
      reject(new Error(missing ? `${command} was not found on PATH (it is needed to install this package)` : `${label}: ${error.message}`));
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      if (timedOut) return reject(new Error(`${label} did not finish in time and was stopped`));
      if (code === 0) return resolve(tail);
      const last = tail.trim().split("\n").slice(-3).join(" | ").trim();
      reject(new Error(`${label} failed (${signal ?? `exit ${code}`})${last ? `: ${last}` : ""}`));
    });
  });
