/**
 * What the model sees: agent messages converted to LLM messages. Bash executions and custom
 * messages become user text; failed or aborted assistant turns are left out (with any result
 * of their calls); a tool call left without a result (an interrupted run) gets a synthetic
 * error result after the turn's real results, so providers accept the history.
 */
import type { AgentMessage, AssistantMessage, LlmMessage, ToolResultMessage } from "../../lib/llm/index.js";
import { bashExecutionToText } from "../../lib/transcript/index.js";

export { bashExecutionToText };

export function toLlmMessages(messages: readonly AgentMessage[]): LlmMessage[] {
  const out: LlmMessage[] = [];
  const answered = new Set<string>();
  for (const message of messages) if (message.role === "toolResult") answered.add(message.toolCallId);
  /** Calls of the assistant turns that are sent: a result for any other call would be orphaned. */
  const sentCalls = new Set<string>();
  /** Synthetic results owed by the last assistant turn; they go after its real results. */
  let owed: ToolResultMessage[] = [];
  const payDebts = () => {
    if (owed.length > 0) out.push(...owed);
    owed = [];
  };

  for (const message of messages) {
    if (message.role !== "toolResult") payDebts();
    switch (message.role) {
      case "user":
        out.push(message);
        break;
      case "assistant":
        if (message.stopReason === "error" || message.stopReason === "aborted") break;
        out.push(message);
        for (const block of message.content) if (block.type === "toolCall") sentCalls.add(block.id);
        owed = missingResults(message, answered);
        break;
      case "toolResult":
        if (sentCalls.has(message.toolCallId)) out.push(message);
        break;
      case "bashExecution":
        if (!message.excludeFromContext) out.push({ role: "user", content: bashExecutionToText(message), timestamp: message.timestamp });
        break;
      case "custom": {
        if (message.excludeFromContext) break;
        const empty = typeof message.content === "string" ? message.content.trim() === "" : message.content.length === 0;
        if (!empty) out.push({ role: "user", content: message.content, timestamp: message.timestamp });
        break;
      }
    }
  }
  payDebts();
  return out;
}

function missingResults(message: AssistantMessage, answered: Set<string>): ToolResultMessage[] {
  const owed: ToolResultMessage[] = [];
  for (const block of message.content) {
    if (block.type !== "toolCall" || answered.has(block.id)) continue;
    owed.push({
      role: "toolResult",
      toolCallId: block.id,
      toolName: block.name,
      content: [{ type: "text", text: "Tool call was interrupted; no result is available." }],
      isError: true,
      timestamp: message.timestamp,
    });
  }
  return owed;
}

/** Concatenated text blocks of an assistant message, trimmed; undefined when it has none. */
export function assistantText(message: AssistantMessage): string | undefined {
  const text = message.content
    .filter((block) => block.type === "text")
    .map((block) => (block as { text: string }).text)
    .join("");
  return text.trim() === "" ? undefined : text.trim();
}
