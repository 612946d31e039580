/**
 * Escalation: with approval "on-request" the model may ask to run one command outside the
 * sandbox, with a reason. The client is asked with a `confirm` dialog (the extension UI
 * sub-protocol: RPC's extension_ui_request, ACP's session/request_permission, every controller of
 * `atomic serve`); the answer is stored in the session as a `sandbox_escalation` custom entry.
 * Without a client that can answer (print and json modes) it is refused, and recorded as such.
 */
import { SandboxBlockedError } from "./api.js";

export const ESCALATION_ENTRY = "sandbox_escalation";

export interface EscalationRequest {
  command: string;
  reason: string;
  cwd: string;
  mode: string;
  toolCallId?: string;
  signal?: AbortSignal;
}

export interface EscalationRecord {
  command: string;
  reason: string;
  cwd: string;
  toolCallId?: string;
  /** approved / declined by the client; unavailable: no client could be asked. */
  outcome: "approved" | "declined" | "unavailable";
}

export interface EscalationDeps {
  approval: "never" | "on-request";
  /** A client that answers dialogs, or undefined (print mode, an embedding without a UI). */
  confirm: ((title: string, message: string, signal?: AbortSignal) => Promise<boolean>) | undefined;
  record(entry: EscalationRecord): void;
}

/** Resolves when the client approved; otherwise rejects with what the model should know. */
export async function askEscalation(deps: EscalationDeps, request: EscalationRequest): Promise<void> {
  if (deps.approval !== "on-request") {
    throw new SandboxBlockedError('blocked by the sandbox: running a command outside it is not allowed here (approval is "never"); the command was not run');
  }
  const base = { command: request.command, reason: request.reason, cwd: request.cwd, ...(request.toolCallId ? { toolCallId: request.toolCallId } : {}) };
  if (!deps.confirm) {
    deps.record({ ...base, outcome: "unavailable" });
    throw new SandboxBlockedError(
      "blocked by the sandbox: running a command outside it needs the user's approval, and no client can be asked in this mode; the command was not run. Do the work inside the sandbox, or tell the user what to run.",
    );
  }
  const message = `The model asks to run this command outside the ${request.mode} sandbox:\n\n${request.command}\n\nReason: ${request.reason}\nFolder: ${request.cwd}`;
  const approved = await deps.confirm("Run a command outside the sandbox?", message, request.signal);
  if (request.signal?.aborted) throw new Error("Command aborted");
  deps.record({ ...base, outcome: approved ? "approved" : "declined" });
  if (!approved)
    throw new SandboxBlockedError(
      "blocked by the sandbox: the user declined to run this command outside it; the command was not run. Find a way inside the sandbox, or ask the user.",
    );
}
