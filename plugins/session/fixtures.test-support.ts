/** Message builders shared by the session tests (not loaded at runtime). */
import type { AssistantMessage, ToolResultMessage, UserMessage } from "../../lib/llm/index.js";

export function user(text: string, timestamp = 1): UserMessage {
  return { role: "user", content: text, timestamp };
}

export function assistant(text: string, options: Partial<AssistantMessage> = {}): AssistantMessage {
  return {
    role: "assistant",
    content: [{ type: "text", text }],
    api: "test-api",
    provider: "test",
    model: "m1",
    usage: { input: 10, output: 5, cacheRead: 2, cacheWrite: 1, totalTokens: 18, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.01 } },
    stopReason: "stop",
    timestamp: 2,
    ...options,
  };
}

export function toolResult(toolCallId: string, text: string): ToolResultMessage {
  return { role: "toolResult", toolCallId, toolName: "bash", content: [{ type: "text", text }], isError: false, timestamp: 3 };
}
