import { describe, expect, it } from "vitest";
import { emptyUsage, type AssistantMessage, type LlmMessage } from "../../lib/llm/index.js";
import { BASH_TOOL, TINY_PNG, runStream, streamRequest } from "../../test/fake-llm/harness.js";
import { describeProviderConformance, useProviderKernel } from "../../test/fake-llm/provider-suite.js";
import { GEMINI_THOUGHT_SIGNATURE } from "../../test/fake-llm/render-google.js";
import googlePlugin from "./index.js";
import { SKIP_THOUGHT_SIGNATURE, buildGeminiRequest, convertMessages, thinkingConfig } from "./request.js";

describeProviderConformance({
  provider: "fake-google",
  plugin: googlePlugin,
  hasImage: (request) => request.body.contents[0].parts.some((p: any) => p.inlineData?.data === TINY_PNG && p.inlineData.mimeType === "image/png"),
  overflowMessage: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
  framesThroughFirstDelta: 1,
  streamsArgumentFragments: false,
});

describe("gemini request and replay", () => {
  const ctx = useProviderKernel("fake-google", googlePlugin);

  it("posts to :streamGenerateContent?alt=sse with the key header and JSON-schema tools", async () => {
    ctx.fake.script({ text: "ok" });
    await runStream(ctx.kernel, streamRequest(ctx.model, { tools: [BASH_TOOL], systemPrompt: "Be brief.", thinkingLevel: "medium" }));
    const request = ctx.fake.requests[0]!;
    expect(request.path).toBe("/v1beta/models/fake-1:streamGenerateContent");
    expect(request.query.alt).toBe("sse");
    expect(request.headers["x-goog-api-key"]).toBe("test-key");
    expect(request.body.systemInstruction.parts[0].text).toBe("Be brief.");
    expect(request.body.tools).toEqual([{ functionDeclarations: [{ name: "bash", description: BASH_TOOL.description, parametersJsonSchema: BASH_TOOL.parameters }] }]);
    expect(request.body.generationConfig.thinkingConfig).toEqual({ includeThoughts: true, thinkingBudget: 8192 });
  });

  it("replays thought signatures and merges function responses into one user turn", async () => {
    ctx.fake.script(
      {
        thinking: "Plan",
        toolCalls: [
          { name: "bash", args: { command: "ls" } },
          { name: "bash", args: { command: "pwd" } },
        ],
      },
      { text: "done" },
    );
    const first = await runStream(ctx.kernel, streamRequest(ctx.model, { tools: [BASH_TOOL], thinkingLevel: "low" }));
    const assistant = (first.final as { message: AssistantMessage }).message;
    const calls = assistant.content.filter((b) => b.type === "toolCall");
    expect(calls[0]).toMatchObject({ thoughtSignature: GEMINI_THOUGHT_SIGNATURE });
    const messages: LlmMessage[] = [
      { role: "user", content: "go", timestamp: 1 },
      assistant,
      ...calls.map((c, i) => ({
        role: "toolResult" as const,
        toolCallId: c.type === "toolCall" ? c.id : "",
        toolName: "bash",
        content: [{ type: "text" as const, text: `out${i}` }],
        isError: i === 1,
        timestamp: 2,
      })),
    ];
    await runStream(ctx.kernel, streamRequest(ctx.model, { messages, tools: [BASH_TOOL] }));
    const contents = ctx.fake.requests[1]!.body.contents;
    expect(contents).toHaveLength(3);
    expect(contents[1].role).toBe("model");
    expect(contents[1].parts[1]).toEqual({ functionCall: { name: "bash", args: { command: "ls" } }, thoughtSignature: GEMINI_THOUGHT_SIGNATURE });
    expect(contents[2].parts).toEqual([{ functionResponse: { name: "bash", response: { output: "out0" } } }, { functionResponse: { name: "bash", response: { error: "out1" } } }]);
  });

  it("maps MAX_TOKENS to length and SAFETY to an error", async () => {
    ctx.fake.script({ text: "cut", stop: "length" }, { text: "x", stop: "error" });
    const cut = await runStream(ctx.kernel, streamRequest(ctx.model));
    expect(cut.final.type === "done" && cut.final.reason).toBe("length");
    const unsafe = await runStream(ctx.kernel, streamRequest(ctx.model));
    expect(unsafe.final.type === "error" && unsafe.final.error.errorMessage).toMatch(/SAFETY/);
  });
});

describe("gemini thinking config", () => {
  const base = {
    name: "g",
    api: "google-generative-ai",
    provider: "google",
    baseUrl: "",
    reasoning: true,
    input: ["text"] as ("text" | "image")[],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 1,
    maxTokens: 1,
  };

  it("uses thinkingLevel on Gemini 3 and budgets on 2.5", () => {
    expect(thinkingConfig({ ...base, id: "gemini-3-pro-preview", thinkingLevels: ["low", "high"] }, "medium")).toEqual({ includeThoughts: true, thinkingLevel: "HIGH" });
    expect(thinkingConfig({ ...base, id: "gemini-2.5-flash" }, "medium")).toEqual({ includeThoughts: true, thinkingBudget: 8192 });
    expect(thinkingConfig({ ...base, id: "gemini-2.5-flash" }, "off")).toEqual({ thinkingBudget: 0 });
    expect(thinkingConfig({ ...base, id: "gemini-2.0-flash", reasoning: false }, "high")).toBeUndefined();
  });
});

describe("gemini history and budgets", () => {
  const base = {
    name: "g",
    api: "google-generative-ai",
    provider: "google",
    baseUrl: "",
    reasoning: true,
    input: ["text"] as ("text" | "image")[],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 1_000_000,
    maxTokens: 65_536,
  };
  const turn = (provider: string, model: string, content: AssistantMessage["content"]): AssistantMessage => ({
    role: "assistant",
    content,
    api: provider === "google" ? "google-generative-ai" : "anthropic-messages",
    provider,
    model,
    usage: emptyUsage(),
    stopReason: "toolUse",
    timestamp: 1,
  });
  const calls: AssistantMessage["content"] = [
    { type: "toolCall", id: "toolu_1", name: "bash", arguments: { command: "a" } },
    { type: "toolCall", id: "toolu_2", name: "bash", arguments: { command: "b" } },
  ];

  it("gives Gemini 3 an unsigned step's first call the skip-validator signature; keeps real ones", () => {
    const gemini3 = { ...base, id: "gemini-3-pro-preview" };
    const foreign = convertMessages([turn("anthropic", "claude", calls)], gemini3)[0]!.parts;
    expect(foreign.map((p) => p.thoughtSignature)).toEqual([SKIP_THOUGHT_SIGNATURE, undefined]);
    const signed: AssistantMessage["content"] = [{ ...(calls[0] as object), thoughtSignature: "real" } as AssistantMessage["content"][number], calls[1]!];
    const own = convertMessages([turn("google", "gemini-3-pro-preview", signed)], gemini3)[0]!.parts;
    expect(own.map((p) => p.thoughtSignature)).toEqual(["real", undefined]);
    // Other Gemini models do not validate signatures: nothing is added.
    const older = convertMessages([turn("anthropic", "claude", calls)], { ...base, id: "gemini-2.5-flash" })[0]!.parts;
    expect(older.map((p) => p.thoughtSignature)).toEqual([undefined, undefined]);
  });

  it("adds a thinking budget on top of the answer's allowance, capped at the model's limit", () => {
    const flash = { ...base, id: "gemini-2.5-flash" };
    expect(buildGeminiRequest(streamRequest(flash, { thinkingLevel: "medium" })).config.maxOutputTokens).toBe(32_000 + 8192);
    expect(buildGeminiRequest(streamRequest(flash, { thinkingLevel: "off" })).config.maxOutputTokens).toBe(32_000);
    expect(buildGeminiRequest(streamRequest({ ...flash, id: "gemini-2.5-pro" }, { thinkingLevel: "high" })).config.maxOutputTokens).toBe(32_000 + 32_768);
    expect(buildGeminiRequest(streamRequest({ ...flash, maxTokens: 40_000 }, { thinkingLevel: "high" })).config.maxOutputTokens).toBe(40_000);
  });

  it("sends tool-result images next to the function response, in the same user turn", () => {
    const contents = convertMessages(
      [
        turn("google", "gemini-2.5-flash", [calls[0]!]),
        { role: "toolResult", toolCallId: "toolu_1", toolName: "bash", content: [{ type: "image", data: TINY_PNG, mimeType: "image/png" }], isError: false, timestamp: 2 },
      ],
      { ...base, id: "gemini-2.5-flash", input: ["text", "image"] },
    );
    expect(contents[1]).toEqual({
      role: "user",
      parts: [{ functionResponse: { name: "bash", response: { output: "(see attached image)" } } }, { inlineData: { mimeType: "image/png", data: TINY_PNG } }],
    });
  });
});
