/**
 * What the model sees: agent messages converted to LLM messages. Bash executions and custom
 * messages become user text; failed or aborted assistant turns are left out; a tool call left
 * without a result (an interrupted run) gets a synthetic error result so providers accept it.
 */
import type { AgentMessage, AssistantMessage, BashExecutionMessage, LlmMessage, ToolResultMessage } from "../../kernel/index.js";

export function bashExecutionToText(message: BashExecutionMessage): string {
  let text = `Ran \`${message.command}\`\n`;
  text += message.output ? `\`\`\`\n${message.output.replace(/\n$/, "")}\n\`\`\`` : "(no output)";
  if (message.cancelled) text += "\n\n(command cancelled)";
  else if (message.exitCode !== undefined && message.exitCode !== 0) text += `\n\nCommand exited with code ${message.exitCode}`;
  if (message.truncated && message.fullOutputPath) text += `\n\n[Output truncated. Full output: ${message.fullOutputPath}]`;
  return text;
}

export function toLlmMessages(messages: readonly AgentMessage[]): LlmMessage[] {
  const out: LlmMessage[] = [];
  const answered = new Set<string>();
  for (const message of messages) if (message.role === "toolResult") answered.add(message.toolCallId);

  for (const message of messages) {
    switch (message.role) {
      case "user":
        out.push(message);
        break;
      case "assistant":
        if (message.stopReason === "error" || message.stopReason === "aborted") break;
        out.push(message);
        pushMissingResults(out, message, answered);
        break;
      case "toolResult":
        out.push(message);
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
  return out;
}

function pushMissingResults(out: LlmMessage[], message: AssistantMessage, answered: Set<string>): void {
  for (const block of message.content) {
    if (block.type !== "toolCall" || answered.has(block.id)) continue;
    const synthetic: ToolResultMessage = {
      role: "toolResult",
      toolCallId: block.id,
      toolName: block.name,
      content: [{ type: "text", text: "Tool call was interrupted; no result is available." }],
      isError: true,
      timestamp: message.timestamp,
    };
    out.push(synthetic);
  }
}

/** Concatenated text blocks of an assistant message, trimmed; undefined when it has none. */
export function assistantText(message: AssistantMessage): string | undefined {
  const text = message.content
    .filter((block) => block.type === "text")
    .map((block) => (block as { text: string }).text)
    .join("");
  return text.trim() === "" ? undefined : text.trim();
}
