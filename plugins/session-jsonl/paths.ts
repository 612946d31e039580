/** Where session files live and how they are named. */
import { join, resolve } from "node:path";
import { expandHome } from "../../kernel/index.js";

/** `/a/b` -> `--a-b--`: one leading separator dropped, `/ \ :` become `-`. */
export function encodeCwd(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
}

/** `<ISO timestamp with : and . as ->_<sessionId>.jsonl` */
export function sessionFileName(timestamp: string, sessionId: string): string {
  return `${timestamp.replace(/[:.]/g, "-")}_${sessionId}.jsonl`;
}

export interface SessionDirSources {
  agentDir: string;
  cwd: string;
  /** --session-dir */
  cliDir?: string | undefined;
  /** ATOMIC_CODING_AGENT_SESSION_DIR */
  envDir?: string | undefined;
  /** settings `sessionDir` */
  settingsDir?: string | undefined;
  /** For `~` (HOME, else USERPROFILE on Windows). */
  env?: NodeJS.ProcessEnv;
}

/**
 * The session directory: the first override given (CLI, then env, then settings) used as is,
 * else `<agentDir>/sessions/--<encoded cwd>--`. Relative overrides resolve against the cwd.
 */
export function resolveSessionDir(sources: SessionDirSources): string {
  const override = [sources.cliDir, sources.envDir, sources.settingsDir].find((dir) => dir !== undefined && dir.trim() !== "");
  if (override !== undefined) return resolve(sources.cwd, expandHome(override.trim(), sources.env));
  return join(sources.agentDir, "sessions", encodeCwd(resolve(sources.cwd)));
}

/** Every session folder's parent: `list_sessions {all: true}` reads its subfolders. */
export function sessionsRoot(agentDir: string): string {
  return join(agentDir, "sessions");
}
