/**
 * Runs the built CLI once to its exit (print and JSON modes, usage errors): stdin is written and
 * closed (or left a terminal-less empty pipe), stdout and stderr are collected.
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { NODE } from "./node.js";
import { CLI } from "./rpc-client.js";
import { agentTempDir, registerStopper } from "./temp.js";
import { seedAgentTranspileCache } from "./transpile-cache.js";

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliRunOptions {
  cwd: string;
  agentDir: string;
  /** Written to stdin, then stdin is closed (default: closed at once, empty). */
  input?: string;
  env?: Record<string, string | undefined>;
  settings?: Record<string, unknown>;
  timeoutMs?: number;
}

export function runCli(args: string[], options: CliRunOptions): Promise<CliRun> {
  if (options.settings) {
    mkdirSync(options.agentDir, { recursive: true });
    writeFileSync(join(options.agentDir, "settings.json"), JSON.stringify(options.settings));
  }
  const env = { ...process.env, TMPDIR: agentTempDir(), ATOMIC_CODING_AGENT_DIR: options.agentDir, ...options.env };
  const keepTranspiled = seedAgentTranspileCache(env.ATOMIC_CODING_AGENT_DIR ?? options.agentDir, args, options.cwd);
  const child = spawn(NODE, [CLI, ...args], { cwd: options.cwd, env, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(options.input ?? "");
  // 'close' comes after the exit and after both pipes have delivered everything.
  const closed = new Promise<CliRun>((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
  const unregister = registerStopper(() => (child.exitCode === null ? (child.kill("SIGKILL"), closed) : closed));
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 20_000);
  return closed.finally(() => {
    clearTimeout(timer);
    unregister();
    keepTranspiled?.();
  });
}
