/**
 * The same RPC tests a second time through a server (issue 34): in a file that runs a suite through
 * a server (`test/*.via-server.e2e.test.ts`, see ./via-server-mode.ts), a client that would spawn
 * `atomic --mode rpc ...` spawns `atomic serve --listen unix:<its own socket> ...` (the same
 * options, so the server's agents run with them) and, as the process the test drives,
 * `atomic --mode rpc --connect unix:... --close-on-exit` with the options that choose the
 * agent's session: what the test sees is the bridge's stdio, which must be exactly what
 * `--mode rpc` writes.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { NODE } from "./node.js";
import { tempDir } from "./temp.js";

/** Module state, not an environment variable: the CLIs a test spawns need not inherit it. */
let throughServer = false;

/** Read when a client starts and when a suite registers its tests. */
export function viaServer(): boolean {
  return throughServer;
}

/** Set for one test file only (./via-server-mode.ts turns it off after the file). */
export function setViaServer(on: boolean): void {
  throughServer = on;
}

/** Whether these arguments start `--mode rpc` (the only mode a bridge speaks). */
export function isRpcLaunch(args: readonly string[]): boolean {
  const mode = args.indexOf("--mode");
  return mode >= 0 && args[mode + 1] === "rpc";
}

/** Launch options that pick the launch's own session: a server's agents never inherit them, the bridge asks for them. */
const SESSION_OPTIONS: Record<string, string> = { "-n": "--name", "--name": "--name", "--session": "--resume" };

const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;

export interface ViaServer {
  child: ChildProcessWithoutNullStreams;
  /** Resolves once the server is gone too (after a SIGKILL of the client, the server is killed the same way). */
  serverGone(signal: NodeJS.Signals | null): Promise<void>;
}

/**
 * One shell runs both: the server in the background (its stderr is the client's, as a
 * `--mode rpc` process's own would be), then, once its socket is there, the bridge, which gets
 * the shell's stdin and the signals the test sends. A server that cannot start (a usage error)
 * ends the shell with its exit code, as `--mode rpc` would have exited; once the bridge exits,
 * the server is stopped and waited for, and the shell exits with the bridge's code.
 */
export function spawnViaServer(cli: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): ViaServer {
  const serverArgs: string[] = [];
  const bridgeArgs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--mode") i++;
    else if (SESSION_OPTIONS[arg]) bridgeArgs.push(SESSION_OPTIONS[arg]!, args[++i]!);
    else serverArgs.push(arg);
  }
  const dir = tempDir("atomic-via-");
  const socket = join(dir, "s.sock");
  const pidFile = join(dir, "server.pid");
  const node = (rest: string[]) => [NODE, cli, ...rest].map(quote).join(" ");
  const script = [
    `${node(["serve", "--listen", `unix:${socket}`, ...serverArgs])} </dev/null >/dev/null & S=$!`,
    `echo $S > ${quote(pidFile)}`,
    `while [ ! -S ${quote(socket)} ] && kill -0 $S 2>/dev/null; do sleep 0.02; done`,
    "if ! kill -0 $S 2>/dev/null; then wait $S; exit $?; fi",
    // A background job's stdin is /dev/null unless it is given one: the shell's own, through fd 3.
    "exec 3<&0",
    `${node(["--mode", "rpc", "--connect", `unix:${socket}`, "--close-on-exit", ...bridgeArgs])} <&3 3<&- & B=$!`,
    "exec 3<&-",
    ...["TERM", "INT", "HUP"].map((signal) => `trap 'kill -${signal} $B 2>/dev/null' ${signal}`),
    "wait $B; C=$?",
    "while kill -0 $B 2>/dev/null; do wait $B; C=$?; done",
    "kill -TERM $S 2>/dev/null; wait $S",
    "exit $C",
  ].join("\n");
  const child = spawn("sh", ["-c", script], { cwd: options.cwd, env: options.env, stdio: ["pipe", "pipe", "pipe"] });
  const serverGone = async (signal: NodeJS.Signals | null) => {
    // The shell waited for the server unless it was killed before it could.
    if (signal !== "SIGKILL") return;
    let pid: number;
    try {
      pid = Number(readFileSync(pidFile, "utf8"));
      process.kill(pid, "SIGKILL");
    } catch {
      return;
    }
    // Gone once its socket refuses (an orphan's exit status may never be collected, so its pid can linger).
    for (let tries = 0; tries < 500 && (await answers(socket)); tries++) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  return { child, serverGone };
}

function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(path);
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", () => resolve(false));
  });
}
