import { describe, expect, it } from "vitest";
import type { AssistantMessage, LlmMessage } from "../../lib/llm/index.js";
import { BASH_TOOL, TINY_PNG, runStream, streamRequest } from "../../test/fake-llm/harness.js";
import { describeProviderConformance, useProviderKernel } from "../../test/fake-llm/provider-suite.js";
import anthropicPlugin from "./index.js";
import { buildAnthropicRequest, convertMessages } from "./request.js";

describeProviderConformance({
  provider: "fake-anthropic",
  plugin: anthropicPlugin,
  hasImage: (request) =>
    request.body.messages[0].content.some((b: any) => b.type === "image" && b.source.type === "base64" && b.source.data === TINY_PNG && b.source.media_type === "image/png"),
  overflowMessage: "prompt is too long: 213462 tokens > 200000 maximum",
  framesThroughFirstDelta: 4,
  streamsArgumentFragments: true,
});

const ownTurn = (model: string): AssistantMessage => ({
  role: "assistant",
  content: [],
  api: "anthropic-messages",
  provider: "fake-anthropic",
  model,
  usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
  stopReason: "toolUse",
  timestamp: 1,
});

describe("anthropic request and replay", () => {
  const ctx = useProviderKernel("fake-anthropic", anthropicPlugin);

  it("posts to /v1/messages with the key, version, betas and cache marks", async () => {
    ctx.fake.script({ text: "ok" });
    await runStream(ctx.kernel, streamRequest(ctx.model, { tools: [BASH_TOOL], systemPrompt: "Be brief." }));
    const request = ctx.fake.requests[0]!;
    expect(request.path).toBe("/v1/messages");
    // SDK 1.x sends the key as a bearer token; older ones used x-api-key.
    expect([request.headers["x-api-key"], request.headers.authorization]).toContainEqual(expect.stringMatching(/^(Bearer )?test-key$/));
    expect(request.headers["anthropic-version"]).toBeTruthy();
    // Tool input streams eagerly per tool; the old global beta header is not sent.
    expect(request.headers["anthropic-beta"]).toBeUndefined();
    expect(request.body).toMatchObject({ model: "fake-1", stream: true, system: [{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }] });
    expect(request.body.tools).toEqual([{ name: "bash", description: BASH_TOOL.description, input_schema: BASH_TOOL.parameters, eager_input_streaming: true }]);
    expect(request.body.messages.at(-1).content.at(-1).cache_control).toEqual({ type: "ephemeral" });
    expect(request.body.thinking).toBeUndefined();
  });

  it("sends a user-added Opus 4.7 adaptive thinking with a summary, never a budget", async () => {
    ctx.fake.script({ thinking: "Summarised reasoning", text: "ok" });
    const opus47 = { ...ctx.model, id: "claude-opus-4-7", maxTokens: 128_000 };
    const { final } = await runStream(ctx.kernel, streamRequest(opus47, { thinkingLevel: "high", tools: [BASH_TOOL] }));
    const body = ctx.fake.requests[0]!.body;
    expect(body).toMatchObject({ model: "claude-opus-4-7", thinking: { type: "adaptive", display: "summarized" }, output_config: { effort: "high" } });
    expect(JSON.stringify(body)).not.toContain("budget_tokens");
    expect(body.tools[0].eager_input_streaming).toBe(true);
    expect((final as { message: AssistantMessage }).message.content[0]).toMatchObject({ type: "thinking", thinking: "Summarised reasoning" });
  });

  it("maps a thinking level to a budget, and to adaptive effort on adaptive models", async () => {
    ctx.fake.script({ text: "a" }, { text: "b" });
    await runStream(ctx.kernel, streamRequest(ctx.model, { thinkingLevel: "low", maxTokens: 4000 }));
    // The budget comes on top of the answer's own allowance, capped at the model's limit.
    expect(ctx.fake.requests[0]!.body.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
    expect(ctx.fake.requests[0]!.body.max_tokens).toBe(6048);
    const adaptive = { ...ctx.model, compat: { adaptiveThinking: true }, thinkingLevels: ["off", "low", "medium", "high", "max"] as const };
    await runStream(ctx.kernel, streamRequest({ ...adaptive, thinkingLevels: [...adaptive.thinkingLevels] }, { thinkingLevel: "xhigh" }));
    expect(ctx.fake.requests[1]!.body).toMatchObject({ thinking: { type: "adaptive" }, output_config: { effort: "max" } });
  });

  it("replays signed thinking and tool calls to the same model; merges tool results", async () => {
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
    expect(assistant.content[0]).toMatchObject({ thinkingSignature: "sig-part-1sig-part-2" });
    const calls = assistant.content.filter((b) => b.type === "toolCall");
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
    await runStream(ctx.kernel, streamRequest(ctx.model, { messages, tools: [BASH_TOOL], thinkingLevel: "low" }));
    const body = ctx.fake.requests[1]!.body;
    expect(body.messages).toHaveLength(3);
    expect(body.messages[1].content[0]).toEqual({ type: "thinking", thinking: "Plan", signature: "sig-part-1sig-part-2" });
    expect(body.messages[1].content[1]).toMatchObject({ type: "tool_use", name: "bash", input: { command: "ls" } });
    expect(body.messages[2].role).toBe("user");
    expect(body.messages[2].content.map((b: any) => [b.type, b.is_error, b.content])).toEqual([
      ["tool_result", false, "out0"],
      ["tool_result", true, "out1"],
    ]);
  });

  it("streams redacted thinking as a placeholder kept for its own model only", async () => {
    ctx.fake.script({ redactedThinking: "opaque-blob", text: "Answer" }, { text: "again" });
    const first = await runStream(ctx.kernel, streamRequest(ctx.model, { thinkingLevel: "medium" }));
    const assistant = (first.final as { message: AssistantMessage }).message;
    expect(assistant.content[0]).toEqual({ type: "thinking", thinking: "[Reasoning redacted]", redacted: true, thinkingSignature: "opaque-blob" });
    expect(first.events.map((e) => e.type).slice(1, 3)).toEqual(["thinking_start", "thinking_end"]);
    const history: LlmMessage[] = [{ role: "user", content: "q", timestamp: 1 }, assistant, { role: "user", content: "more", timestamp: 2 }];
    await runStream(ctx.kernel, streamRequest(ctx.model, { messages: history, thinkingLevel: "medium" }));
    expect(ctx.fake.requests[1]!.body.messages[1].content).toEqual([
      { type: "redacted_thinking", data: "opaque-blob" },
      { type: "text", text: "Answer" },
    ]);
    // Another model never sees it.
    const other = { ...ctx.model, id: "fake-2" };
    const otherBody = buildAnthropicRequest(streamRequest(other, { messages: history })).params as { messages: { content: unknown }[] };
    expect(otherBody.messages[1]!.content).toEqual([{ type: "text", text: "Answer" }]);
  });

  it("prices cache writes and keeps them out of input", async () => {
    ctx.fake.script({ text: "ok", usage: { input: 100, output: 20, cacheRead: 300, cacheWrite: 400 } });
    const { final } = await runStream(ctx.kernel, streamRequest(ctx.model));
    const usage = (final as { message: AssistantMessage }).message.usage;
    expect(usage).toMatchObject({ input: 100, output: 20, cacheRead: 300, cacheWrite: 400, totalTokens: 820 });
    expect(usage.cost.cacheWrite).toBeCloseTo((3.75 * 400) / 1e6, 12);
  });

  it("adds a medium budget on top of the answer's allowance, without temperature; no thinking where no budget fits", () => {
    const big = { ...ctx.model, maxTokens: 64_000 };
    const { params, betas } = buildAnthropicRequest(streamRequest(big, { thinkingLevel: "medium" }));
    expect(params).toMatchObject({ thinking: { type: "enabled", budget_tokens: 8192 }, max_tokens: 32_000 + 8192 });
    expect(params.temperature).toBeUndefined();
    expect(betas).toContain("interleaved-thinking-2025-05-14");
    // The model's limit wins; the budget shrinks to leave room for the answer.
    const capped = buildAnthropicRequest(streamRequest(ctx.model, { thinkingLevel: "high" })).params;
    expect(capped).toMatchObject({ max_tokens: 8192, thinking: { budget_tokens: 8192 - 1024 } });
    const tiny = buildAnthropicRequest(streamRequest({ ...ctx.model, maxTokens: 1024 }, { thinkingLevel: "high" })).params;
    expect(tiny.thinking).toBeUndefined();
    const adaptive = buildAnthropicRequest(streamRequest({ ...big, compat: { adaptiveThinking: true } }, { thinkingLevel: "high" }));
    expect(adaptive.params).toMatchObject({ thinking: { type: "adaptive" }, output_config: { effort: "high" }, max_tokens: 32_000 });
    expect(adaptive.betas).not.toContain("interleaved-thinking-2025-05-14");
  });

  it("sends tool-result images inside the tool_result block", async () => {
    ctx.fake.script({ text: "seen" });
    const messages: LlmMessage[] = [
      { role: "user", content: "shot", timestamp: 1 },
      {
        ...ownTurn(ctx.model.id),
        content: [
          { type: "toolCall", id: "toolu_a", name: "shot", arguments: {} },
          { type: "toolCall", id: "toolu_b", name: "shot", arguments: {} },
        ],
      },
      {
        role: "toolResult",
        toolCallId: "toolu_a",
        toolName: "shot",
        content: [
          { type: "text", text: "here" },
          { type: "image", data: TINY_PNG, mimeType: "image/png" },
        ],
        isError: false,
        timestamp: 2,
      },
      { role: "toolResult", toolCallId: "toolu_b", toolName: "shot", content: [{ type: "image", data: TINY_PNG, mimeType: "image/png" }], isError: false, timestamp: 3 },
    ];
    await runStream(ctx.kernel, streamRequest(ctx.model, { messages }));
    const results = ctx.fake.requests[0]!.body.messages[2].content;
    const image = { type: "image", source: { type: "base64", media_type: "image/png", data: TINY_PNG } };
    expect(results[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_a", content: [{ type: "text", text: "here" }, image] });
    expect(results[1]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_b", content: [{ type: "text", text: "(see attached image)" }, image] });
  });

  it("maps max_tokens to length and a refusal to an error", async () => {
    ctx.fake.script({ text: "cut", stop: "length" }, { text: "no", stop: "error" });
    const length = await runStream(ctx.kernel, streamRequest(ctx.model));
    expect(length.final.type === "done" && length.final.reason).toBe("length");
    const refusal = await runStream(ctx.kernel, streamRequest(ctx.model));
    expect(refusal.final.type === "error" && refusal.final.error.errorMessage).toMatch(/refus/);
  });
});

describe("anthropic thinking decided by the model", () => {
  const base = {
    id: "x",
    name: "x",
    api: "anthropic-messages",
    provider: "anthropic",
    baseUrl: "",
    reasoning: true,
    input: ["text" as const],
    cost: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 1_000_000,
    maxTokens: 64_000,
  };
  const thinking = (id: string, level: "off" | "high" | "xhigh" = "high", extra = {}) =>
    buildAnthropicRequest(streamRequest({ ...base, id, ...extra }, { thinkingLevel: level })).params;

  it("gives a user-added Opus 4.7 adaptive thinking with summarized display, never budget_tokens", () => {
    expect(thinking("claude-opus-4-7")).toMatchObject({ thinking: { type: "adaptive", display: "summarized" }, output_config: { effort: "high" } });
    expect(JSON.stringify(thinking("claude-opus-4-7"))).not.toContain("budget_tokens");
    expect(thinking("claude-opus-4-7", "xhigh", { thinkingLevels: ["low", "medium", "high", "xhigh", "max"] }).output_config).toEqual({ effort: "xhigh" });
  });

  it("keeps 4.6 adaptive without a display, 4.5 on a budget, and disables thinking explicitly where it is on by default", () => {
    expect(thinking("claude-sonnet-4-6").thinking).toEqual({ type: "adaptive" });
    expect(thinking("claude-sonnet-4-5-20250929").thinking).toMatchObject({ type: "enabled", budget_tokens: 16384 });
    expect(thinking("claude-sonnet-4-20250514").thinking).toMatchObject({ type: "enabled" });
    expect(thinking("claude-opus-4-7", "off").thinking).toBeUndefined();
    expect(thinking("claude-opus-5", "off").thinking).toEqual({ type: "disabled" });
    expect(thinking("claude-opus-5-5").thinking).toEqual({ type: "adaptive", display: "summarized" });
    // compat still wins over the id.
    expect(thinking("claude-opus-4-7", "high", { compat: { adaptiveThinking: false, thinkingDisplay: "omitted" } }).thinking).toMatchObject({ type: "enabled" });
    expect(thinking("my-proxy-model", "high", { compat: { adaptiveThinking: true, thinkingDisplay: "omitted" } }).thinking).toEqual({ type: "adaptive", display: "omitted" });
  });

  it("falls back to the fine-grained streaming beta where per-tool eager streaming is unsupported", () => {
    const { params, betas } = buildAnthropicRequest(streamRequest({ ...base, compat: { supportsEagerToolInputStreaming: false } }, { tools: [BASH_TOOL] }));
    expect((params.tools as Record<string, unknown>[])[0]!.eager_input_streaming).toBeUndefined();
    expect(betas).toContain("fine-grained-tool-streaming-2025-05-14");
  });
});

describe("anthropic.cacheTtl", () => {
  const ctx = useProviderKernel("fake-anthropic", anthropicPlugin, { anthropic: { cacheTtl: "1h" } });

  it("marks the cache for an hour and prices one-hour writes at twice the input price", async () => {
    ctx.fake.script({ text: "ok", usage: { input: 10, output: 5, cacheWrite: 1000, cacheWrite1h: 1000 } });
    const { final } = await runStream(ctx.kernel, streamRequest(ctx.model, { systemPrompt: "S" }));
    const body = ctx.fake.requests[0]!.body;
    expect(body.system[0].cache_control).toEqual({ type: "ephemeral", ttl: "1h" });
    expect(body.messages.at(-1).content.at(-1).cache_control).toEqual({ type: "ephemeral", ttl: "1h" });
    expect((final as { message: AssistantMessage }).message.usage.cost.cacheWrite).toBeCloseTo((3 * 2 * 1000) / 1e6, 12);
  });
});

describe("anthropic history conversion", () => {
  const model = {
    id: "m",
    name: "m",
    api: "anthropic-messages",
    provider: "anthropic",
    baseUrl: "",
    reasoning: true,
    input: ["text", "image"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 1,
    maxTokens: 1,
  } as const;
  const from = (provider: string, content: AssistantMessage["content"]): AssistantMessage => ({
    role: "assistant",
    content,
    api: provider === "anthropic" ? "anthropic-messages" : "openai-responses",
    provider,
    model: provider === "anthropic" ? "m" : "gpt",
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    stopReason: "toolUse",
    timestamp: 1,
  });

  it("keeps redacted thinking for the same model as redacted_thinking", () => {
    const out = convertMessages(
      [
        from("anthropic", [
          { type: "thinking", thinking: "[Reasoning redacted]", redacted: true, thinkingSignature: "opaque" },
          { type: "text", text: "hi" },
        ]),
      ],
      { ...model, input: [...model.input] },
    );
    expect(out[0]!.content).toEqual([
      { type: "redacted_thinking", data: "opaque" },
      { type: "text", text: "hi" },
    ]);
  });

  it("turns unsigned thinking into text", () => {
    const out = convertMessages([from("anthropic", [{ type: "thinking", thinking: "musing" }])], { ...model, input: [...model.input] });
    expect(out[0]!.content).toEqual([{ type: "text", text: "musing" }]);
  });
});
