/**
 * A failure the server answers itself: the seed's `error` text plus a stable `code` clients match
 * on (docs/server.md, Error codes).
 */
import { ErrorCode, KernelError } from "../../kernel/index.js";
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
    new ServerError("unauthorized", `${type} is not allowed to an observer of agent ${agent}: observers may send only get_* commands and list_sessions`),
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

/** Why an agent could not be opened or loaded, coded: `session_in_use` for a held session file, else what `fallback` makes of it. */
export function bootFailure(
  error: unknown,
  fallback: (error: unknown) => unknown = (other) => serverErrors.invalid(other instanceof Error ? other.message : String(other)),
): unknown {
  if (error instanceof ServerError) return error;
  const code = error instanceof KernelError ? codeOf(error) : undefined;
  return code ? new ServerError(code, (error as KernelError).message) : fallback(error);
}
