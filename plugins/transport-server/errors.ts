/**
 * A failure the server answers itself: the seed's `error` text plus a stable `code` clients match
 * on (docs/server.md, Error codes).
 */
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
        ? 'No agent given: this connection is attached to none (add "agent": "<handle>")'
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
