/**
 * A failure the server answers itself: the seed's `error` text plus a stable `code` clients match
 * on (docs/server.md, Error codes).
 */
import { ErrorCode, isKernelError, KernelError } from "../../kernel/index.js";
import type { ServerErrorCode } from "./schemas.js";

export class ServerError extends Error {
  readonly code: ServerErrorCode;
  /** The agent the failed command was for, once known (the response carries it). */
  agent: string | undefined;

  constructor(code: ServerErrorCode, message: string) {
    super(message);
    this.name = "ServerError";
    this.code = code;
  }
}

export const serverErrors = {
  unknownAgent: (agent: string) => new ServerError("unknown_agent", `Unknown agent: ${agent}`),
  missingAgent: (attached: number) =>
    new ServerError(
      "missing_agent",
      attached === 0
        ? 'No agent given: this connection is attached to none (open one with {"type":"agent_open"}, or attach to one agent_list shows; then commands go to it, or name it with "agent": "<handle>")'
        : `No agent given: this connection is attached to ${attached} agents (add "agent": "<handle>")`,
    ),
  notAttached: (agent: string) => new ServerError("not_attached", `Not attached to agent ${agent}`),
  unauthorized: (type: string, agent: string) =>
    new ServerError("unauthorized", `${type} is not allowed to an observer of agent ${agent}: an observer may send it only get_* commands and list_sessions`),
  /** An observer asking for control of what it observes (`attach` as control). */
  observerAttach: (agent: string) =>
    new ServerError("unauthorized", `attach as control is not allowed to an observer of agent ${agent}: attach with "role": "observe", or control it from another connection`),
  /** A server command that acts (agent_open, server_shutdown) from a connection attached to agents only as an observer. */
  observerOnly: (type: string) =>
    new ServerError(
      "unauthorized",
      `${type} is not allowed to a connection that only observes: it may send get_* commands and list_sessions, server_info, agent_list, detach, and attach with "role": "observe"`,
    ),
  shuttingDown: () => new ServerError("shutting_down", "The server is shutting down"),
  limitReached: (what: string) => new ServerError("limit_reached", what),
  overloaded: (agent: string, waiting: number) => new ServerError("server_overloaded", `Agent ${agent} has ${waiting} commands waiting: try again when it has answered some`),
  sessionInUse: (file: string, agent: string) => new ServerError("session_in_use", `Session ${file} is already open in agent ${agent}`),
  invalid: (message: string) => new ServerError("invalid_request", message),
};

/** The server's code for an agent's own coded failure, where it has one: a session file another agent or process holds (the session lock). */
export function codeOf(error: KernelError): ServerErrorCode | undefined {
  return error.code === ErrorCode.IN_USE ? "session_in_use" : undefined;
}

/**
 * Why an agent could not be opened or loaded, coded: `session_in_use` for a held session file (the
 * lock's own words: it names the file and its owner), else what `fallback` makes of it. A
 * client never booted anything: the host's `[plugin x] boot failed:` label is taken off.
 */
export function bootFailure(
  error: unknown,
  fallback: (error: unknown) => unknown = (other) => serverErrors.invalid(other instanceof Error ? other.message : String(other)),
): unknown {
  if (error instanceof ServerError) return error;
  const inUse = deepest(error, ErrorCode.IN_USE);
  if (inUse) return new ServerError("session_in_use", inUse.message);
  return fallback(unlabelled(error));
}

/** The innermost error of the `cause` chain with this code. */
function deepest(error: unknown, code: string): KernelError | undefined {
  let found: KernelError | undefined;
  for (let current = error; isKernelError(current); current = current.cause) if (current.code === code) found = current;
  return found;
}

/** A boot hook's failure as its plugin said it; a plain throw (a bug) keeps the plugin's name. */
function unlabelled(error: unknown): unknown {
  if (!isKernelError(error) || error.plugin === undefined || !error.message.startsWith(`[plugin ${error.plugin}] boot failed: `)) return error;
  const cause = error.cause;
  if (isKernelError(cause)) return cause;
  const said = cause instanceof Error ? cause.message : error.message.slice(`[plugin ${error.plugin}] boot failed: `.length);
  return new KernelError(error.code, `The agent could not start (plugin ${error.plugin}): ${said}`, { cause });
}
