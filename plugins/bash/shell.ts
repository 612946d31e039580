/**
 * Which shell runs commands, decided once per process and shared by the `bash` tool and the
 * `bash` command: the `shellPath` setting, else `bash` (on PATH, then /bin/bash; Git Bash on
 * Windows), else `sh`. Plus the `shellCommandPrefix` setting, prepended to every command.
 */
import { constants } from "node:fs";
import { access } from "node:fs/promises";
import { delimiter, join, posix, win32 } from "node:path";

export interface ShellLookup {
  shellPath?: string;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** Whether a file exists and may be executed. */
  isExecutable?(path: string): Promise<boolean>;
}

export async function findShell(lookup: ShellLookup): Promise<string> {
  if (lookup.shellPath) return lookup.shellPath;
  const isExecutable = lookup.isExecutable ?? canExecute;
  for (const candidate of shellCandidates(lookup)) if (await isExecutable(candidate)) return candidate;
  throw new Error("No shell found (looked for bash, then sh): set shellPath in settings.json");
}

/** Where to look, in order of preference. */
export function shellCandidates({ env, platform }: Pick<ShellLookup, "env" | "platform">): string[] {
  const windows = platform === "win32";
  const path = env.PATH ?? env.Path ?? "";
  // Relative entries ("." or "") would find a `bash` planted in the project folder: skipped.
  const dirs = path.split(windows ? ";" : delimiter).filter((dir) => (windows ? win32.isAbsolute(dir) : posix.isAbsolute(dir)));
  const onPath = (name: string) => dirs.map((dir) => (windows ? `${dir.replace(/[\\/]+$/, "")}\\${name}.exe` : join(dir, name)));
  if (!windows) return [...onPath("bash"), "/bin/bash", ...onPath("sh"), "/bin/sh"];
  // Git for Windows is the usual bash; its bin folder is often not on PATH.
  const gitBash = [env.ProgramFiles, env["ProgramFiles(x86)"]].filter((dir): dir is string => !!dir).map((dir) => `${dir}\\Git\\bin\\bash.exe`);
  return [...onPath("bash"), ...gitBash, ...onPath("sh")];
}

/** The command as the shell receives it: the configured prefix on its own line first. */
export function withCommandPrefix(command: string, prefix: string | undefined): string {
  return prefix && prefix.trim() !== "" ? `${prefix}\n${command}` : command;
}

/** Resolves the shell on first use and remembers the answer (or the failure) for this process. */
export function sharedShell(lookup: ShellLookup): () => Promise<string> {
  let found: Promise<string> | undefined;
  return () => (found ??= findShell(lookup));
}

/**
 * Why the `shellPath` setting cannot run commands, or undefined. Only a path is checked: a bare
 * name (`zsh`) is looked up on PATH when a command starts.
 */
export async function shellPathProblem(shellPath: string, isExecutable: (path: string) => Promise<boolean> = canExecute): Promise<string | undefined> {
  if (!/[\\/]/.test(shellPath) || (await isExecutable(shellPath))) return undefined;
  return `Settings shellPath "${shellPath}" is not an executable file: the bash tool and the bash command fail until it names one (without it, bash, else sh, is found on PATH).`;
}

async function canExecute(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
