import { describe, expect, it } from "vitest";
import type { AgentMessage, AssistantMessage, ImageContent } from "../llm/index.js";
import { bashExecutionToText, isContextVisible, messageSections, renderTranscript } from "./index.js";

const image: ImageContent = { type: "image", data: "AAAA", mimeType: "image/png" };
const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const assistant = (content: AssistantMessage["content"], stopReason: AssistantMessage["stopReason"] = "stop"): AssistantMessage => ({
  role: "assistant",
  content,
  api: "a",
  provider: "p",
  model: "m",
  usage,
  stopReason,
  timestamp: 1,
});

describe("renderTranscript", () => {
  it("should render user, assistant (thinking, text, calls) and tool results as sections", () => {
    const messages: AgentMessage[] = [
      { role: "user", content: [{ type: "text", text: "request" }, image], timestamp: 1 },
      assistant([
        { type: "thinking", thinking: "reason" },
        { type: "text", text: "answer" },
        { type: "toolCall", id: "c1", name: "read", arguments: { path: "a.ts" } },
      ]),
      { role: "toolResult", toolCallId: "c1", toolName: "read", content: [{ type: "text", text: "result" }, image], isError: false, timestamp: 2 },
    ];
    expect(renderTranscript(messages, "compacted")).toBe(
      '[User]: request\n[image]\n\n[Assistant thinking]: reason\n\n[Assistant]: answer\n\n[Assistant tool calls]: read(path="a.ts")\n\n[Tool result]: result\n[image]',
    );
  });

  it("should concatenate text blocks and put an image on its own line", () => {
    const message: AgentMessage = {
      role: "user",
      content: [{ type: "text", text: "alpha" }, { type: "text", text: "beta" }, image, { type: "text", text: "gamma" }, { type: "text", text: "delta" }],
      timestamp: 1,
    };
    expect(messageSections(message, "compacted")).toEqual(["[User]: alphabeta\n[image]\ngammadelta"]);
  });

  it("should cut a long tool result in compacted mode only, and collect images in retained mode", () => {
    const long: AgentMessage = {
      role: "toolResult",
      toolCallId: "c",
      toolName: "bash",
      content: [{ type: "text", text: "x".repeat(16_010) }, image],
      isError: false,
      timestamp: 1,
    };
    const [compacted] = messageSections(long, "compacted");
    expect(compacted).toBe(`[Tool result]: ${"x".repeat(16_000)}\n\n[... 10 more characters truncated]\n[image]`);
    const images: ImageContent[] = [];
    expect(messageSections(long, "retained", images)).toEqual([`[Tool result]: ${"x".repeat(16_010)}\n[image]`]);
    expect(images).toEqual([image]);
  });

  it("should join several calls with '; ' and drop one trailing newline", () => {
    const calls = assistant([
      { type: "toolCall", id: "1", name: "bash", arguments: { command: "ls -la", timeout: 5 } },
      { type: "toolCall", id: "2", name: "ls", arguments: {} },
    ]);
    expect(messageSections(calls, "compacted")).toEqual(['[Assistant tool calls]: bash(command="ls -la", timeout=5); ls()']);
    expect(messageSections({ role: "user", content: "two lines\n", timestamp: 1 }, "compacted")).toEqual(["[User]: two lines"]);
  });

  it("should leave out what the model never sees", () => {
    expect(isContextVisible(assistant([{ type: "text", text: "partial" }], "error"))).toBe(false);
    expect(isContextVisible(assistant([{ type: "text", text: "partial" }], "aborted"))).toBe(false);
    expect(isContextVisible({ role: "custom", customType: "note", content: "x", display: true, excludeFromContext: true, timestamp: 1 })).toBe(false);
    expect(isContextVisible({ role: "custom", customType: "note", content: "  ", display: true, timestamp: 1 })).toBe(false);
    expect(isContextVisible({ role: "user", content: "", timestamp: 1 })).toBe(false);
    expect(isContextVisible({ role: "toolResult", toolCallId: "c", toolName: "bash", content: [], isError: false, timestamp: 1 })).toBe(true);
  });

  it("should render user shell commands as the model saw them", () => {
    const bash = { role: "bashExecution" as const, command: "ls", output: "a\nb\n", exitCode: 2, cancelled: false, truncated: false, fullOutputPath: null, timestamp: 1 };
    expect(bashExecutionToText(bash)).toBe("Ran `ls`\n```\na\nb\n```\n\nCommand exited with code 2");
    expect(messageSections(bash, "compacted")).toEqual(["[User]: Ran `ls`\n```\na\nb\n```\n\nCommand exited with code 2"]);
    expect(messageSections({ ...bash, excludeFromContext: true }, "compacted")).toEqual([]);
  });
});
