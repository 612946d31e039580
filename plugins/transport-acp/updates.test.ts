import { describe, expect, it } from "vitest";
import type { AssistantMessage } from "../../lib/llm/index.js";
import type { OutEvent } from "../../kernel/index.js";
import { historyUpdates, stopReasonOf, toolTitle, updatesOf } from "./updates.js";

const assistant = (fields: Partial<AssistantMessage>): AssistantMessage =>
  ({
    role: "assistant",
    content: [],
    api: "x",
    provider: "p",
    model: "m",
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    stopReason: "stop",
    timestamp: 1,
    ...fields,
  }) as AssistantMessage;

describe("ACP session updates", () => {
  it("streams text and thinking as chunks and announces a tool call once its arguments are known", () => {
    const partial = assistant({});
    const update = (assistantMessageEvent: unknown) => updatesOf({ type: "message_update", message: partial, assistantMessageEvent } as OutEvent, "/work");
    expect(update({ type: "text_delta", contentIndex: 0, delta: "Hi", partial })).toEqual([{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Hi" } }]);
    expect(update({ type: "thinking_delta", contentIndex: 0, delta: "hmm", partial })).toEqual([{ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "hmm" } }]);
    expect(update({ type: "toolcall_delta", contentIndex: 1, delta: "{", partial })).toEqual([]);
    expect(update({ type: "toolcall_end", contentIndex: 1, toolCall: { type: "toolCall", id: "c1", name: "read", arguments: { path: "src/a.ts" } }, partial })).toEqual([
      {
        sessionUpdate: "tool_call",
        toolCallId: "c1",
        title: "Read src/a.ts",
        kind: "read",
        status: "pending",
        rawInput: { path: "src/a.ts" },
        locations: [{ path: "/work/src/a.ts" }],
      },
    ]);
  });

  it("follows a tool's execution with status and output", () => {
    const result = { content: [{ type: "text" as const, text: "out" }], details: { exitCode: 1 } };
    expect(updatesOf({ type: "tool_execution_start", toolCallId: "c1", toolName: "bash", args: {} }, "/w")).toEqual([
      { sessionUpdate: "tool_call_update", toolCallId: "c1", status: "in_progress" },
    ]);
    expect(updatesOf({ type: "tool_execution_end", toolCallId: "c1", toolName: "bash", result, isError: true }, "/w")).toEqual([
      { sessionUpdate: "tool_call_update", toolCallId: "c1", status: "failed", content: [{ type: "content", content: { type: "text", text: "out" } }], rawOutput: { exitCode: 1 } },
    ]);
  });

  it("titles calls for a human and replays a stored conversation", () => {
    expect(toolTitle("bash", { command: "npm test\nnpm run lint" })).toBe("Run npm test");
    expect(toolTitle("grep", { pattern: "TODO", path: "src" })).toBe('Search "TODO" in src');
    expect(toolTitle("my_tool", {})).toBe("my_tool");
    const history = historyUpdates(
      [
        { role: "user", content: "fix it", timestamp: 1 },
        assistant({
          content: [
            { type: "thinking", thinking: "plan" },
            { type: "text", text: "On it" },
            { type: "toolCall", id: "c1", name: "edit", arguments: { path: "/a.ts" } },
          ],
          stopReason: "toolUse",
        }),
        { role: "toolResult", toolCallId: "c1", toolName: "edit", content: [{ type: "text", text: "ok" }], isError: false, timestamp: 2 },
      ],
      "/w",
    );
    expect(history.map((u) => u.sessionUpdate)).toEqual(["user_message_chunk", "agent_thought_chunk", "agent_message_chunk", "tool_call", "tool_call_update"]);
  });

  it("maps stop reasons; a provider failure is an error unless it is a refusal", () => {
    expect(stopReasonOf(assistant({ stopReason: "stop" }))).toEqual({ stopReason: "end_turn" });
    expect(stopReasonOf(assistant({ stopReason: "length" }))).toEqual({ stopReason: "max_tokens" });
    expect(stopReasonOf(assistant({ stopReason: "aborted" }))).toEqual({ stopReason: "cancelled" });
    expect(stopReasonOf(assistant({ stopReason: "error", errorMessage: "The model refused to respond (stop_reason: refusal)" }))).toEqual({ stopReason: "refusal" });
    expect(stopReasonOf(assistant({ stopReason: "error", errorMessage: "Provider finish_reason: content_filter" }))).toEqual({ stopReason: "refusal" });
    expect(stopReasonOf(assistant({ stopReason: "error", errorMessage: "429 Rate limit" }))).toEqual({ error: "429 Rate limit" });
  });
});
