/**
 * pi's local shell backends for extensions: `getShellConfig` (which bash runs commands),
 * `createLocalBashOperations` (what an extension that rewrites `user_bash` or wraps the bash tool
 * delegates to), and their PowerShell counterparts, which pi offers on Windows only.
 */
import { accessSync, constants, statSync } from "node:fs";
import { access } from "node:fs/promises";
import { constants as osConstants } from "node:os";
import { win32 } from "node:path";
import { signalProcessTree } from "../../../lib/process-tree/index.js";
import { shellCandidates } from "../../bash/api.js";

export interface ShellConfig {
  shell: string;
  args: string[];
  commandTransport?: "argv" | "stdin";
}

/** pi's `BashOperations`: runs one command, streams its output, answers its exit code. */
export interface BashOperations {
  exec(
    command: string,
    cwd: string,
    options: { onData: (data: Buffer) => void; signal?: AbortSignal; timeout?: number; env?: NodeJS.ProcessEnv },
  ): Promise<{ exitCode: number | null }>;
}

const POWERSHELL_ARGS = ["-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-Command"];

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return isFile(path);
  } catch {
    return false;
  }
}

/** The shell pi would run commands with: `customShellPath` (which must exist), else bash, else `sh`. */
export function getShellConfig(customShellPath?: string): ShellConfig {
  if (customShellPath) {
    if (!isFile(customShellPath)) throw new Error(`Custom shell path not found: ${customShellPath}`);
    return { shell: customShellPath, args: ["-c"] };
  }
  const candidates = shellCandidates({ env: process.env, platform: process.platform });
  const bash = candidates.find((path) => /bash(\.exe)?$/i.test(path) && isExecutable(path));
  if (bash) return { shell: bash, args: ["-c"] };
  if (process.platform === "win32") throw new Error("No bash shell found: install Git for Windows, put a bash on PATH, or set shellPath in settings.json");
  return { shell: "sh", args: ["-c"] };
}

/** PowerShell 7 (`pwsh`) or Windows PowerShell; like pi, only on Windows. */
export function getPowerShellConfig(): ShellConfig {
  if (process.platform !== "win32") throw new Error("The powershell tool is only available on Windows.");
  const dirs = (process.env.PATH ?? process.env.Path ?? "").split(";").filter((dir) => win32.isAbsolute(dir));
  const found = [
    ...dirs.map((dir) => win32.join(dir, "pwsh.exe")),
    ...(process.env.ProgramFiles ? [win32.join(process.env.ProgramFiles, "PowerShell", "7", "pwsh.exe")] : []),
    ...dirs.map((dir) => win32.join(dir, "powershell.exe")),
    ...(process.env.SystemRoot ? [win32.join(process.env.SystemRoot, "System32", "WindowsPowerShell", "v1.0", "powershell.exe")] : []),
  ].find(isFile);
  if (!found) throw new Error("No PowerShell executable found. Install PowerShell or add powershell.exe/pwsh.exe to PATH.");
  return { shell: found, args: [...POWERSHELL_ARGS] };
}

/** Runs commands with the shell `resolveShell` names: the whole process tree is stopped on abort or timeout (seconds). */
function localShellOperations(shellName: string, resolveShell: () => ShellConfig): BashOperations {
  return {
    async exec(command, cwd, { onData, signal, timeout, env }) {
      if (signal?.aborted) throw new Error("aborted");
      const config = resolveShell();
      await access(cwd, constants.F_OK).catch(() => {
        throw new Error(`Working directory does not exist: ${cwd}\nCannot execute ${shellName} commands.`);
      });
      const viaStdin = config.commandTransport === "stdin";
      // Loaded on the first command: an extension start does not pay for the module.
      const { spawn } = await import("node:child_process");
      const child = spawn(config.shell, viaStdin ? config.args : [...config.args, command], {
        cwd,
        env: env ?? process.env,
        detached: process.platform !== "win32",
        windowsHide: true,
        stdio: [viaStdin ? "pipe" : "ignore", "pipe", "pipe"],
      });
      if (viaStdin) child.stdin?.end(command);
      const system = { platform: process.platform, kill: (pid: number, sig: "SIGTERM" | "SIGKILL") => process.kill(pid, sig), spawn };
      const stop = () => child.pid && signalProcessTree(child.pid, "SIGKILL", system);
      let timedOut = false;
      const timer = timeout && timeout > 0 ? setTimeout(() => ((timedOut = true), stop()), timeout * 1000) : undefined;
      // Aborted while the shell was being looked up: stopped as soon as it exists.
      if (signal?.aborted) stop();
      else signal?.addEventListener("abort", stop, { once: true });
      child.stdout?.on("data", onData);
      child.stderr?.on("data", onData);
      try {
        const [code, signalName] = await new Promise<[number | null, NodeJS.Signals | null]>((resolveExit, reject) => {
          child.once("error", reject);
          child.once("close", (exitCode, killedBy) => resolveExit([exitCode, killedBy]));
        });
        if (signal?.aborted) throw new Error("aborted");
        if (timedOut) throw new Error(`Command timed out after ${timeout} seconds`);
        return { exitCode: code ?? (signalName ? 128 + (osConstants.signals[signalName] ?? 0) : 1) };
      } finally {
        if (timer) clearTimeout(timer);
        signal?.removeEventListener("abort", stop);
      }
    },
  };
}

export function createLocalBashOperations(options: { shellPath?: string } = {}): BashOperations {
  return localShellOperations("bash", () => getShellConfig(options.shellPath));
}

export function createLocalPowerShellOperations(): BashOperations {
  return localShellOperations("powershell", getPowerShellConfig);
}
