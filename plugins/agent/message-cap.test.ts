import { describe, expect, it } from "vitest";
import { emptyUsage, type AssistantMessage, type AssistantMessageEvent } from "../../lib/llm/index.js";
import { DEFAULT_MAX_MESSAGE_CHARS, MessageSizeCap } from "./message-cap.js";

const partial: AssistantMessage = {
  role: "assistant",
  content: [{ type: "text", text: "abc" }],
  api: "a",
  provider: "p",
  model: "m",
  usage: emptyUsage(),
  stopReason: "stop",
  timestamp: 1,
};
const delta = (type: "text_delta" | "thinking_delta" | "toolcall_delta", text: string) => ({ type, contentIndex: 0, delta: text, partial }) as AssistantMessageEvent;

describe("MessageSizeCap", () => {
  it("counts text, thinking and tool-call deltas, and nothing else, against the cap", () => {
    const cap = new MessageSizeCap(10);
    expect(cap.exceeded(delta("text_delta", "12345"))).toBe(false);
    expect(cap.exceeded({ type: "text_end", contentIndex: 0, content: "x".repeat(100), partial })).toBe(false);
    expect(cap.exceeded(delta("thinking_delta", "123"))).toBe(false);
    expect(cap.exceeded(delta("toolcall_delta", "12"))).toBe(false);
    expect(cap.exceeded(delta("text_delta", "1"))).toBe(true);
  });

  it("defaults to 8 Mi characters; a stopped message keeps its content and says why", () => {
    const cap = new MessageSizeCap();
    expect(cap.exceeded(delta("text_delta", "x".repeat(DEFAULT_MAX_MESSAGE_CHARS)))).toBe(false);
    expect(cap.exceeded(delta("text_delta", "x"))).toBe(true);
    const stopped = cap.stopped(partial);
    expect(stopped).toMatchObject({ stopReason: "error", content: [{ type: "text", text: "abc" }] });
    expect(stopped.errorMessage).toContain("past 8388608 characters");
    expect(stopped.content).not.toBe(partial.content);
  });
});
