/**
 * Where a user bash result goes: exactly once, into the session where its request started. While
 * that session is current, through the agent (stored now when idle, when the run ends if one
 * streams, so never between a tool call and its result; the session records it). Once it was
 * replaced, straight into that old session's storage, and not into the agent's live context.
 * The request is answered once the result is stored or handed to the run: a command that ends
 * while a run streams is answered then, not when the run ends (docs/protocol-guide.md: bash
 * answers when the command ends).
 */
import type { BashExecutionMessage } from "../../lib/llm/index.js";
import type { PluginContext } from "../../kernel/index.js";
import type {} from "../agent/api.js";
import type {} from "../session/api.js";
import type { FullOutputFiles } from "./output-files.js";

/** Resolves once the message is stored, or queued for the end of the run that streams. */
export type StoreResult = (message: BashExecutionMessage) => Promise<void>;

/** Binds the destination now (at the request's start); the returned function stores the result. */
export function openResultStore(k: Pick<PluginContext, "maybeService">, files: FullOutputFiles): StoreResult {
  const session = k.maybeService("session")?.handle();
  return async (message) => {
    const agent = k.maybeService("agent");
    if (agent && (!session || session.isCurrent())) {
      if (!agent.isStreaming()) return agent.appendMessage(message);
      // Stored when the run ends (its settle logs a failure); the wait never rejects.
      void agent.appendAfterRun(message);
      return;
    }
    if (!session) return;
    await session.appendMessage(message);
    files.noteStored(message, () => session.file !== undefined);
  };
}
