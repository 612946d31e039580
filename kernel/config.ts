/**
 * What every plugin reads about its process: the agent dir, the working folder, the validated
 * settings and the command-line options. `Settings` and `CliOptions` are open interfaces: each
 * plugin declares the keys it owns (with `settings`/`flags` in its definition) and augments them.
 */
import { homedir } from "node:os";
import nodePath, { join, resolve } from "node:path";

/** Which file a setting came from. */
export type SettingSource = "user" | "project" | "override";

/**
 * Validated settings (user file, project file, overrides; project wins). Plugins augment it:
 * @example declare module "atomic-agent" { interface Settings { myPlugin?: { level: number } } }
 */
export interface Settings {
  mode?: string;
  plugins?: string[];
  trustedProjects?: string[];
}

/** Parsed command-line options. Plugins augment it with the keys of the flags they declare. */
export interface CliOptions {
  mode?: string;
  approve?: boolean;
  help?: boolean;
  version?: boolean;
  /** `--verbose`: also show on stderr what is otherwise only logged to files. */
  verbose?: boolean;
  /** Non-flag arguments, in order. */
  positionals: string[];
  /** `"sdk"`: `createAgent`'s options gave these, not a command line (messages name its options: lib/cli-io's `optionName`). */
  origin?: "sdk";
}

export interface KernelConfig {
  /** `~/.atomic/agent`, or `ATOMIC_CODING_AGENT_DIR`. */
  agentDir: string;
  cwd: string;
  settings: Settings;
  cli: CliOptions;
  env: NodeJS.ProcessEnv;
  /** Whether the project in `cwd` is trusted (`--approve` or the user's `trustedProjects`). */
  trusted: boolean;
  /** Where each top-level setting came from, and the files read (diagnostics). */
  settingsSources?: { sources: Record<string, SettingSource>; userFile: string; projectFile: string };
  /**
   * Each file's validated settings before the merge (the project's without what it may not set):
   * for a key whose values add up instead of replacing (packages from both files), or that a
   * project may only tighten. `override`: the settings passed in (an embedder's, a sibling's own).
   */
  settingsLayers?: { user: Readonly<Record<string, unknown>>; project: Readonly<Record<string, unknown>>; override?: Readonly<Record<string, unknown>> };
  /** Where Atomic itself is installed (the package root): bundled assets live under it. */
  installDir?: string;
  /**
   * The client of this host can answer extension UI dialogs: what the serving transport declares
   * (`TransportDefinition.dialogs`), or what the opener of a sibling says. Set by the host once
   * every plugin has applied (transports are registered then), before the boot phases.
   */
  dialogs?: boolean;
}

export function resolveAgentDir(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.ATOMIC_CODING_AGENT_DIR;
  return fromEnv ? resolve(expandHome(fromEnv, env)) : join(homedir(), ".atomic", "agent");
}

export function userSettingsPath(agentDir: string): string {
  return join(agentDir, "settings.json");
}

export function projectSettingsPath(cwd: string): string {
  return join(cwd, ".atomic", "settings.json");
}

/** The path functions the checks below use: the platform's, or `path.win32` in tests of Windows behaviour. */
export type PathApi = Pick<typeof nodePath, "join" | "resolve" | "relative" | "isAbsolute" | "sep">;

/** `~`, `~/x` and (for Windows users) `~\\x` name the home folder (HOME, else USERPROFILE). */
export function expandHome(path: string, env: NodeJS.ProcessEnv = process.env, paths: PathApi = nodePath): string {
  if (path === "~") return env.HOME ?? env.USERPROFILE ?? homedir();
  if (path.startsWith("~/") || path.startsWith("~\\")) return paths.join(env.HOME ?? env.USERPROFILE ?? homedir(), path.slice(2));
  return path;
}

/** Whether `child` is `parent` or inside it, by path parts (so `/a/bc` is not inside `/a/b`; on Windows across `\\` and case). */
export function isInsideFolder(child: string, parent: string, paths: PathApi = nodePath): boolean {
  const relative = paths.relative(parent, child);
  return relative === "" || (relative !== ".." && !relative.startsWith(`..${paths.sep}`) && !paths.isAbsolute(relative));
}

/** A project is trusted by `--approve`, or when `cwd` is (inside) a folder of the user's `trustedProjects`. */
export function isTrustedProject(
  cwd: string,
  trustedProjects: readonly string[] | undefined,
  approve: boolean | undefined,
  env: NodeJS.ProcessEnv = process.env,
  paths: PathApi = nodePath,
): boolean {
  if (approve) return true;
  const here = paths.resolve(cwd);
  return (trustedProjects ?? []).some((entry) => isInsideFolder(here, paths.resolve(expandHome(entry, env, paths)), paths));
}
