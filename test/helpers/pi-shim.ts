/**
 * Atomic standing in for the `pi` executable, for clients written for pi (pi-acp, pi's own
 * RpcClient): an executable `pi` script that runs this repository's built CLI under a chosen
 * Node, and records the id of every process it starts so a test can wait for (or end) them.
 * Also a PATH on which no other `pi` can be found, so such a client never reaches the real one.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { CLI } from "./rpc-client.js";
import { registerStopper, tempDir } from "./temp.js";
import { NODE } from "./node.js";

export interface PiShim {
  /** The executable (`<dir>/pi`). */
  command: string;
  /** The processes it started so far. */
  pids(): number[];
  /** Waits until every process it started has exited (SIGKILL after `timeoutMs`). */
  settle(timeoutMs?: number): Promise<void>;
}

/** `args`: appended to what the client passes (e.g. `--connect unix:PATH`, to reach a server through the bridge). */
/** `cli`: the script the shim runs (Atomic's built CLI; pi 1.6's own `dist/bundle/cli.js` for a side-by-side run). */
export function piShim(node: string = NODE, args: readonly string[] = [], cli: string = CLI): PiShim {
  const dir = tempDir("atomic-pi-shim-");
  const pidFile = join(dir, "pids");
  const command = join(dir, "pi");
  // `exec` keeps the recorded id: the shell becomes the CLI.
  writeFileSync(command, `#!/bin/sh\necho $$ >> ${quote(pidFile)}\nexec ${quote(node)} ${quote(cli)} "$@"${args.map((arg) => ` ${quote(arg)}`).join("")}\n`, { mode: 0o755 });
  const pids = () => (existsSync(pidFile) ? readFileSync(pidFile, "utf8").split("\n").filter(Boolean).map(Number) : []);
  const settle = async (timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const running = pids().filter(isRunning);
      if (running.length === 0) return;
      if (Date.now() > deadline) {
        for (const pid of running) process.kill(pid, "SIGKILL");
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  registerStopper(() => settle(1_000));
  return { command, pids, settle };
}

/** `PATH` without any folder holding a `pi`: the client under test can only reach Atomic through the shim. */
export function pathWithoutPi(path = process.env.PATH ?? ""): string {
  return path
    .split(delimiter)
    .filter((dir) => dir !== "" && !existsSync(join(dir, "pi")))
    .join(delimiter);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
