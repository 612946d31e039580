import { describe, expect, it } from "vitest";
import { emptyUsage, type AgentMessage, type AssistantMessage, type BashExecutionMessage } from "../../lib/llm/index.js";
import { assistantText, bashExecutionToText, toLlmMessages } from "./convert.js";

function assistant(content: AssistantMessage["content"], stopReason: AssistantMessage["stopReason"] = "stop"): AssistantMessage {
  return { role: "assistant", content, api: "a", provider: "p", model: "m", usage: emptyUsage(), stopReason, timestamp: 5 };
}

function bash(overrides: Partial<BashExecutionMessage>): BashExecutionMessage {
  return { role: "bashExecution", command: "ls", output: "a\nb\n", exitCode: 0, cancelled: false, truncated: false, fullOutputPath: null, timestamp: 7, ...overrides };
}

describe("bashExecutionToText", () => {
  it("renders the command, a fenced output block and the outcome notes", () => {
    expect(bashExecutionToText(bash({}))).toBe("Ran `ls`\n```\na\nb\n```");
    expect(bashExecutionToText(bash({ output: "" }))).toBe("Ran `ls`\n(no output)");
    expect(bashExecutionToText(bash({ exitCode: 2 }))).toBe("Ran `ls`\n```\na\nb\n```\n\nCommand exited with code 2");
    expect(bashExecutionToText(bash({ cancelled: true, exitCode: undefined }))).toBe("Ran `ls`\n```\na\nb\n```\n\n(command cancelled)");
    expect(bashExecutionToText(bash({ truncated: true, fullOutputPath: "/tmp/full.log" }))).toBe("Ran `ls`\n```\na\nb\n```\n\n[Output truncated. Full output: /tmp/full.log]");
  });
});

describe("toLlmMessages", () => {
  it("keeps user/assistant/toolResult, drops failed turns, and turns bash and custom messages into user text", () => {
    const user: AgentMessage = { role: "user", content: "hi", timestamp: 1 };
    const ok = assistant([{ type: "text", text: "hello" }]);
    const failed = assistant([{ type: "text", text: "half" }], "error");
    const aborted = assistant([], "aborted");
    const messages: AgentMessage[] = [
      user,
      failed,
      aborted,
      ok,
      bash({}),
      bash({ excludeFromContext: true, command: "secret" }),
      { role: "custom", customType: "note", content: "remember this", display: true, timestamp: 8 },
      { role: "custom", customType: "note", content: "  ", display: true, timestamp: 9 },
      { role: "custom", customType: "note", content: "hidden", display: false, excludeFromContext: true, timestamp: 10 },
    ];
    expect(toLlmMessages(messages)).toEqual([
      user,
      ok,
      { role: "user", content: "Ran `ls`\n```\na\nb\n```", timestamp: 7 },
      { role: "user", content: "remember this", timestamp: 8 },
    ]);
  });

  it("answers a tool call left without a result so the provider accepts the history", () => {
    const call = assistant(
      [
        { type: "toolCall", id: "c1", name: "read", arguments: {} },
        { type: "toolCall", id: "c2", name: "ls", arguments: {} },
      ],
      "toolUse",
    );
    const answered: AgentMessage = { role: "toolResult", toolCallId: "c1", toolName: "read", content: [{ type: "text", text: "ok" }], isError: false, timestamp: 6 };
    const next: AgentMessage = { role: "user", content: "next", timestamp: 9 };
    const out = toLlmMessages([call, answered, next]);
    expect(out.map((m) => (m.role === "toolResult" ? `${m.role}:${m.toolCallId}:${m.isError}` : m.role))).toEqual([
      "assistant",
      "toolResult:c1:false",
      "toolResult:c2:true", // synthetic, after the turn's real results
      "user",
    ]);
    expect(toLlmMessages([call]).map((m) => m.role)).toEqual(["assistant", "toolResult", "toolResult"]);
  });

  it("drops results whose call belongs to a turn that is not sent", () => {
    const failedCall = assistant([{ type: "toolCall", id: "x1", name: "read", arguments: {} }], "error");
    const orphan: AgentMessage = { role: "toolResult", toolCallId: "x1", toolName: "read", content: [], isError: true, timestamp: 6 };
    const user: AgentMessage = { role: "user", content: "again", timestamp: 9 };
    expect(toLlmMessages([failedCall, orphan, user])).toEqual([user]);
  });
});

describe("assistantText", () => {
  it("joins and trims the text blocks; undefined when there is no text", () => {
    expect(
      assistantText(
        assistant([
          { type: "thinking", thinking: "hmm" },
          { type: "text", text: " a" },
          { type: "text", text: "b " },
        ]),
      ),
    ).toBe("ab");
    expect(assistantText(assistant([{ type: "toolCall", id: "x", name: "ls", arguments: {} }]))).toBeUndefined();
  });
});
