import { describe, expect, it } from "vitest";
import { emptyUsage, type AssistantMessage, type LlmMessage, type Model } from "../llm/index.js";
import { IMAGE_OMITTED, fitToolCallId, prepareHistory } from "./history.js";

const target: Model = {
  id: "claude",
  name: "Claude",
  api: "anthropic-messages",
  provider: "anthropic",
  baseUrl: "",
  reasoning: true,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 1,
  maxTokens: 1,
};

const assistant = (provider: string, content: AssistantMessage["content"]): AssistantMessage => ({
  role: "assistant",
  content,
  api: provider === "anthropic" ? "anthropic-messages" : "openai-responses",
  provider,
  model: provider === "anthropic" ? "claude" : "gpt",
  usage: emptyUsage(),
  stopReason: "toolUse",
  timestamp: 1,
});

describe("prepareHistory", () => {
  it("keeps the same model's replay data untouched", () => {
    const own = assistant("anthropic", [{ type: "thinking", thinking: "t", thinkingSignature: "sig" }]);
    expect(prepareHistory([own], target)[0]).toBe(own);
  });

  it("turns another model's thinking into text, drops its redacted thinking and signatures, remaps tool ids", () => {
    const messages: LlmMessage[] = [
      assistant("openai", [
        { type: "thinking", thinking: "reasoned", thinkingSignature: '{"type":"reasoning"}' },
        { type: "thinking", thinking: "[Reasoning redacted]", redacted: true, thinkingSignature: "x" },
        { type: "text", text: "calling", textSignature: '{"v":1,"id":"msg_1"}' },
        { type: "toolCall", id: "call_1|fc_1", name: "bash", arguments: { command: "ls" }, thoughtSignature: "ts" },
      ]),
      { role: "toolResult", toolCallId: "call_1|fc_1", toolName: "bash", content: [{ type: "text", text: "ok" }], isError: false, timestamp: 2 },
    ];
    const [converted, result] = prepareHistory(messages, target, { normalizeToolCallId: (id) => id.replace(/\|/g, "_") });
    expect((converted as AssistantMessage).content).toEqual([
      { type: "text", text: "reasoned" },
      { type: "text", text: "calling" },
      { type: "toolCall", id: "call_1_fc_1", name: "bash", arguments: { command: "ls" } },
    ]);
    expect(result).toMatchObject({ role: "toolResult", toolCallId: "call_1_fc_1" });
    expect((messages[0] as AssistantMessage).content).toHaveLength(4); // input untouched
  });

  it("drops unpaired surrogates from user and tool-result text, keeping real pairs", () => {
    const cut = "out: \u{1F600} then \uD83D";
    const messages: LlmMessage[] = [
      { role: "user", content: "hi \uDE00 there", timestamp: 1 },
      { role: "toolResult", toolCallId: "t", toolName: "bash", content: [{ type: "text", text: cut }], isError: false, timestamp: 2 },
    ];
    const [user, result] = prepareHistory(messages, target);
    expect(user!.content).toBe("hi  there");
    expect(result!.content).toEqual([{ type: "text", text: "out: \u{1F600} then " }]);
    expect(JSON.stringify(result)).not.toMatch(/\\ud83d"/i);
    const clean: LlmMessage = { role: "user", content: "plain \u{1F600}", timestamp: 3 };
    expect(prepareHistory([clean], target)[0]).toBe(clean);
  });

  it("replaces images with a note for text-only models", () => {
    const [user] = prepareHistory(
      [
        {
          role: "user",
          content: [
            { type: "text", text: "see" },
            { type: "image", data: "AAAA", mimeType: "image/png" },
          ],
          timestamp: 1,
        },
      ],
      target,
    );
    expect(user!.content).toEqual([
      { type: "text", text: "see" },
      { type: "text", text: IMAGE_OMITTED },
    ]);
  });
});

describe("fitToolCallId", () => {
  it("replaces disallowed characters and keeps short ids as they are", () => {
    expect(fitToolCallId("call_1|fc_1", 64)).toBe("call_1_fc_1");
    expect(fitToolCallId("toolu_01A-b", 40)).toBe("toolu_01A-b");
    expect(fitToolCallId("", 40)).toBe("call");
  });

  it("shortens long ids to the limit, stably, without merging ids that share a prefix", () => {
    const a = `call_${"x".repeat(60)}_a`;
    const b = `call_${"x".repeat(60)}_b`;
    for (const max of [40, 64]) {
      expect(fitToolCallId(a, max)).toHaveLength(max);
      expect(fitToolCallId(a, max)).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(fitToolCallId(a, max)).toBe(fitToolCallId(a, max));
      expect(fitToolCallId(a, max)).not.toBe(fitToolCallId(b, max));
    }
  });
});
