/**
 * Which stored session a process opens at startup: `--continue`/`--resume` (the session of this
 * folder written most recently; in RPC mode there is no picker, so they are the same), or `--session <path|id>` (a
 * file, or the session whose id starts with the prefix: this folder's sessions first, then every
 * folder's). `--fork <path|id>` copies one into a new session and `--session-id <id>` names the
 * session (pi 1.6). Mistakes are usage errors that say what was looked for and what matched.
 */
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { expandHome, UsageError, type CliOptions, type FlagSpec, type Logger } from "../../kernel/index.js";
import type { SessionInfo, SessionStore } from "./api.js";

export const sessionFlags: FlagSpec[] = [
  { name: "--name", alias: "-n", key: "name", value: "<name>", description: "Session display name at startup." },
  {
    name: "--continue",
    alias: "-c",
    key: "continue",
    conflicts: ["--resume", "--session", "--no-session"],
    description: "Continue the most recent session of this folder (a new one when there is none).",
  },
  { name: "--resume", alias: "-r", key: "resume", conflicts: ["--session", "--no-session"], description: "Resume a session; in RPC mode the same as --continue (no picker)." },
  { name: "--session", key: "session", value: "<path|id>", conflicts: ["--no-session"], description: "Open this session file, or the session whose id starts with this prefix." },
  {
    name: "--session-id",
    key: "sessionId",
    value: "<id>",
    conflicts: ["--session", "--continue", "--resume"],
    description: "Open this folder's session with this id, or start a new session with it (letters, digits, . _ -); with --fork, the fork's id.",
  },
  {
    name: "--fork",
    key: "fork",
    value: "<path|id>",
    conflicts: ["--session", "--continue", "--resume", "--no-session"],
    description: "Start with a copy of this session (file, or id prefix) as a new session of this folder.",
  },
];

/** pi's rule for a session id given on the command line: it becomes part of a file name. */
const SESSION_ID = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

/** The `--session-id` value, checked; undefined when not given. */
export function cliSessionId(cli: CliOptions): string | undefined {
  const id = cli.sessionId;
  if (id === undefined) return undefined;
  if (!SESSION_ID.test(id)) {
    throw new UsageError(`Invalid --session-id "${id}": use letters, digits, ".", "_" and "-", starting and ending with a letter or digit`);
  }
  return id;
}

/** This folder's stored session with exactly this id, if any. */
export async function sessionWithId(store: SessionStore | undefined, id: string): Promise<SessionInfo | undefined> {
  return ((await store?.list?.()) ?? []).find((session) => session.id === id);
}

export interface StartupSessionSources {
  cli: CliOptions;
  cwd: string;
  env: NodeJS.ProcessEnv;
  store: SessionStore | undefined;
  log: Logger;
}

/** The file to open at startup, or undefined for a new session. */
export async function startupSessionFile({ cli, cwd, env, store, log }: StartupSessionSources): Promise<string | undefined> {
  if (cli.session !== undefined) return resolveSessionArgument(cli.session, { cwd, env, store });
  if (!cli.continue && !cli.resume) return undefined;
  if (cli.resume) await refuseResumeValue(cli.positionals[0], { cwd, env, store });
  const latest = store?.latest ? await store.latest() : (await store?.list?.())?.[0]?.path;
  if (!latest) log.info(`No previous session${store ? ` in ${store.sessionDir()}` : ""}: starting a new one.`);
  return latest;
}

/**
 * `--resume 01a25180`: pi's --resume takes no value (it opens a picker; here, the latest session),
 * so the id would be read as the prompt. An argument after it that names a stored session is
 * taken for what it is: a usage error that shows the flag meant.
 */
async function refuseResumeValue(argument: string | undefined, where: Pick<StartupSessionSources, "cwd" | "env" | "store">): Promise<void> {
  if (argument === undefined || !/^(?:[0-9a-f][0-9a-f-]{3,}|\S+\.jsonl)$/i.test(argument)) return;
  const named = await resolveSessionArgument(argument, where).then(
    () => true,
    () => false,
  );
  if (named) throw new UsageError(`--resume takes no value: it reopens this folder's latest session. To open the session "${argument}", use --session ${argument}`);
}

/** `--session <arg>`: a path (anything with a separator or a `.jsonl` name), else an id prefix (else a file in the cwd). */
export async function resolveSessionArgument(arg: string, { cwd, env, store }: Pick<StartupSessionSources, "cwd" | "env" | "store">): Promise<string> {
  // An empty prefix would match every session: a script's unset variable (`--session "$ID"`), not a choice.
  if (arg.trim() === "") throw new UsageError(`Session not given (--session): expected a session file's path or an id prefix, got ${JSON.stringify(arg)}`);
  const path = resolve(cwd, expandHome(arg, env));
  if (/[\\/]/.test(arg) || arg.endsWith(".jsonl") || arg.startsWith("~")) {
    if (await isFile(path)) return path;
    throw new UsageError(`Session file not found: ${path} (--session)`);
  }
  const here = pick(arg, (await store?.list?.()) ?? []);
  if (here) return here.path;
  const everywhere = pick(arg, (await store?.list?.({ all: true })) ?? []);
  if (everywhere) return everywhere.path;
  // A bare name that is no id: a file of that name in the working folder, if there is one.
  if (await isFile(path)) return path;
  throw new UsageError(`No session found matching "${arg}" (--session): no such file, and no session id starts with it`);
}

/** The one session `prefix` names (an exact id wins), undefined for none; several are an error listing them. */
function pick(prefix: string, sessions: readonly SessionInfo[]): SessionInfo | undefined {
  const exact = sessions.find((session) => session.id === prefix);
  if (exact) return exact;
  const matches = sessions.filter((session) => session.id.startsWith(prefix));
  if (matches.length <= 1) return matches[0];
  const listed = matches.map((session) => `  ${session.id}  ${session.modified}  ${session.path}  ${JSON.stringify(oneLine(session.firstMessage))}`);
  throw new UsageError([`Session id prefix "${prefix}" is ambiguous (--session); it matches ${matches.length} sessions:`, ...listed].join("\n"));
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
