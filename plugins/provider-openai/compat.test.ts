/**
 * pi's `compat` keys on the wire: OpenAI-compatible servers detected by name or base URL
 * (DeepSeek, OpenRouter, Mistral), each key overriding detection, and `thinkingLevelMap`.
 * The real openai SDK against the fake server.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Kernel } from "../../kernel/kernel.js";
import type { AssistantMessage, LlmMessage, Model } from "../../lib/llm/index.js";
import { BASH_TOOL, bootKernel, removeDir, runStream, streamRequest, tempDir } from "../../test/fake-llm/harness.js";
import { startFakeLlm, type FakeLlm, type RecordedRequest } from "../../test/fake-llm/server.js";
import { completionsCompat } from "./completions-compat.js";
import { TOOL_RESULTS_BRIDGE } from "./completions-messages.js";
import openaiPlugin from "./index.js";

let fake: FakeLlm;
let agentDir: string;
let kernel: Kernel;
const warnings: string[] = [];

const model = (id: string, extra: Record<string, unknown> = {}) => ({ id, reasoning: true, input: ["text", "image"], ...extra });

beforeAll(async () => {
  fake = await startFakeLlm();
  agentDir = await tempDir();
  const base = { baseUrl: `${fake.url}/v1`, api: "openai-completions", apiKey: "k" };
  const providers = {
    deepseek: { ...base, models: [model("deepseek-v4")] },
    openrouter: { ...base, models: [model("anthropic/claude-x"), model("google/gemini-x")] },
    mistral: { ...base, models: [model("mistral-large", { reasoning: false })] },
    qwen: { ...base, compat: { thinkingFormat: "qwen" }, models: [model("qwen3")] },
    plain: {
      ...base,
      models: [
        model("all-keys", {
          compat: {
            supportsStore: true,
            supportsUsageInStreaming: false,
            maxTokensField: "max_tokens",
            supportsStrictMode: false,
            requiresToolResultName: true,
            requiresAssistantAfterToolResult: true,
            supportsReasoningEffort: false,
            bogusKey: 1,
          },
        }),
        model("mapped", { thinkingLevelMap: { off: null, minimal: null, low: "lite", high: "deep", xhigh: "deeper" } }),
      ],
    },
  };
  await writeFile(join(agentDir, "models.json"), JSON.stringify({ providers }));
  kernel = await bootKernel({ agentDir, plugins: [openaiPlugin], log: { ...silent(), warn: (m: string) => void warnings.push(m) } });
});
afterAll(async () => {
  await fake.close();
  await removeDir(agentDir);
});
beforeEach(() => {
  fake.requests.length = 0;
});

function silent() {
  const noop = () => {};
  return { debug: noop, info: noop, warn: noop, error: noop };
}

const find = (provider: string, id: string): Model => kernel.services.get("models").find(provider, id)!;

/** One request through `model`, answered by marker so parallel or shuffled tests cannot swap replies. */
async function send(target: Model, options: Parameters<typeof streamRequest>[1] = {}, reply = {}): Promise<RecordedRequest> {
  const marker = `m${Math.random().toString(36).slice(2)}`;
  fake.setDefault((request) => (JSON.stringify(request.body).includes(marker) ? { text: "ok", ...reply } : { text: "other" }));
  const messages: LlmMessage[] = [...(options.messages ?? []), { role: "user", content: marker, timestamp: 1 }];
  const result = await runStream(kernel, streamRequest(target, { ...options, messages }));
  (send as { last?: AssistantMessage }).last = (result.final as { message?: AssistantMessage }).message;
  return fake.requests.find((r) => JSON.stringify(r.body).includes(marker))!;
}

describe("detected servers", () => {
  it("DeepSeek: max_tokens, usage asked for, thinking on/off, reasoning_content on every assistant turn", async () => {
    const deepseek = find("deepseek", "deepseek-v4");
    const toolTurn: AssistantMessage = {
      role: "assistant",
      content: [{ type: "toolCall", id: "call_1", name: "bash", arguments: { command: "ls" } }],
      api: deepseek.api,
      provider: "deepseek",
      model: deepseek.id,
      usage: undefined as never,
      stopReason: "toolUse",
      timestamp: 1,
    };
    const history: LlmMessage[] = [
      { role: "user", content: "go", timestamp: 1 },
      toolTurn,
      { role: "toolResult", toolCallId: "call_1", toolName: "bash", content: [{ type: "text", text: "a" }], isError: false, timestamp: 1 },
    ];
    const on = await send(deepseek, { messages: history, tools: [BASH_TOOL], thinkingLevel: "high" });
    expect(on.body).toMatchObject({ max_tokens: expect.any(Number), thinking: { type: "enabled" }, reasoning_effort: "high" });
    expect(on.body.stream_options).toEqual({ include_usage: true });
    expect(on.body.max_completion_tokens).toBeUndefined();
    expect(on.body.messages[2]).toMatchObject({ role: "assistant", reasoning_content: "", tool_calls: [{ id: "call_1" }] });
    const off = await send(deepseek, { thinkingLevel: "off" });
    expect(off.body.thinking).toEqual({ type: "disabled" });
    expect(off.body.reasoning_effort).toBeUndefined();
  });

  it("OpenRouter: reasoning object, cache marks for anthropic/*, reasoning_details round trip", async () => {
    const claude = await send(find("openrouter", "anthropic/claude-x"), { tools: [BASH_TOOL], systemPrompt: "S", thinkingLevel: "medium" });
    expect(claude.body).toMatchObject({ reasoning: { effort: "medium" }, max_tokens: expect.any(Number) });
    expect(claude.body.stream_options).toEqual({ include_usage: true });
    expect(claude.body.messages[0]).toEqual({ role: "system", content: [{ type: "text", text: "S", cache_control: { type: "ephemeral" } }] });
    expect(claude.body.tools.at(-1).cache_control).toEqual({ type: "ephemeral" });
    expect(claude.body.messages.at(-1).content.at(-1).cache_control).toEqual({ type: "ephemeral" });

    const gemini = find("openrouter", "google/gemini-x");
    await send(gemini, { tools: [BASH_TOOL] }, { toolCalls: [{ name: "bash", args: { command: "ls" } }], reasoningDetails: true });
    const turn = (send as { last?: AssistantMessage }).last!;
    const call = turn.content.find((b) => b.type === "toolCall")!;
    expect(call.type === "toolCall" && JSON.parse(call.thoughtSignature!)).toMatchObject({ type: "reasoning.encrypted", id: call.type === "toolCall" ? call.id : "" });
    const replay = await send(gemini, {
      messages: [
        { role: "user", content: "go", timestamp: 1 },
        turn,
        { role: "toolResult", toolCallId: call.type === "toolCall" ? call.id : "", toolName: "bash", content: [{ type: "text", text: "out" }], isError: false, timestamp: 2 },
      ],
      tools: [BASH_TOOL],
    });
    expect(replay.body.messages[2].reasoning_details).toEqual([expect.objectContaining({ type: "reasoning.encrypted", data: expect.stringMatching(/^enc_/) })]);
    expect(claude.body.store).toBeUndefined();
  });

  it("Mistral: max_tokens, usage asked for, tool results named", async () => {
    const history: LlmMessage[] = [
      { role: "user", content: "go", timestamp: 1 },
      {
        role: "assistant",
        content: [{ type: "toolCall", id: "abc123def", name: "bash", arguments: {} }],
        api: "openai-completions",
        provider: "mistral",
        model: "mistral-large",
        usage: undefined as never,
        stopReason: "toolUse",
        timestamp: 1,
      },
      { role: "toolResult", toolCallId: "abc123def", toolName: "bash", content: [{ type: "text", text: "out" }], isError: false, timestamp: 1 },
    ];
    const request = await send(find("mistral", "mistral-large"), { messages: history, tools: [BASH_TOOL] });
    expect(request.body.stream_options).toEqual({ include_usage: true });
    expect(request.body.max_tokens).toEqual(expect.any(Number));
    expect(request.body.messages[3]).toEqual({ role: "tool", tool_call_id: "abc123def", content: "out", name: "bash" });
  });

  it("detects by base URL as well as by provider name", () => {
    const at = (baseUrl: string, id = "m") => completionsCompat({ ...find("plain", "mapped"), provider: "custom", id, baseUrl, compat: {} });
    expect(at("https://api.deepseek.com/v1")).toMatchObject({
      thinkingFormat: "deepseek",
      supportsUsageInStreaming: true,
      maxTokensField: "max_tokens",
      requiresReasoningContentOnAssistantMessages: true,
    });
    expect(at("https://openrouter.ai/api/v1", "anthropic/claude-sonnet-4.6")).toMatchObject({
      thinkingFormat: "openrouter",
      cacheControlFormat: "anthropic",
      maxTokensField: "max_tokens",
    });
    expect(at("https://api.mistral.ai/v1")).toMatchObject({ supportsUsageInStreaming: true, maxTokensField: "max_tokens", requiresToolResultName: true });
    expect(at("https://api.openai.com/v1")).toMatchObject({
      supportsStore: true,
      supportsDeveloperRole: true,
      supportsUsageInStreaming: true,
      maxTokensField: "max_completion_tokens",
    });
    expect(at("http://localhost:11434/v1")).toMatchObject({ supportsStore: false, supportsDeveloperRole: false, thinkingFormat: "openai" });
  });
});

describe("explicit compat keys", () => {
  it("each key changes the request, and an unknown key is warned about once", async () => {
    const history: LlmMessage[] = [
      { role: "user", content: "go", timestamp: 1 },
      {
        role: "assistant",
        content: [{ type: "toolCall", id: "call_9", name: "bash", arguments: {} }],
        api: "openai-completions",
        provider: "plain",
        model: "all-keys",
        usage: undefined as never,
        stopReason: "toolUse",
        timestamp: 1,
      },
      { role: "toolResult", toolCallId: "call_9", toolName: "bash", content: [{ type: "text", text: "out" }], isError: false, timestamp: 1 },
    ];
    const request = await send(find("plain", "all-keys"), { messages: history, tools: [BASH_TOOL], thinkingLevel: "high" });
    expect(request.body).toMatchObject({ store: false, max_tokens: expect.any(Number) });
    expect(request.body.stream_options).toBeUndefined();
    expect(request.body.reasoning_effort).toBeUndefined();
    expect(request.body.tools[0].function.strict).toBeUndefined();
    expect(request.body.messages.slice(3)).toEqual([
      { role: "tool", tool_call_id: "call_9", content: "out", name: "bash" },
      { role: "assistant", content: TOOL_RESULTS_BRIDGE },
      expect.objectContaining({ role: "user" }),
    ]);
    expect(warnings.filter((w) => w.includes('"bogusKey"'))).toHaveLength(1);
  });

  it("thinkingFormat qwen sends enable_thinking", async () => {
    expect((await send(find("qwen", "qwen3"), { thinkingLevel: "low" })).body.enable_thinking).toBe(true);
    expect((await send(find("qwen", "qwen3"), { thinkingLevel: "off" })).body.enable_thinking).toBe(false);
  });

  it("thinkingLevelMap renames levels and removes the ones mapped to null", async () => {
    const mapped = find("plain", "mapped");
    expect(mapped.thinkingLevels).toEqual(["low", "medium", "high", "xhigh"]);
    expect((await send(mapped, { thinkingLevel: "low" })).body.reasoning_effort).toBe("lite");
    expect((await send(mapped, { thinkingLevel: "medium" })).body.reasoning_effort).toBe("medium");
    expect((await send(mapped, { thinkingLevel: "xhigh" })).body.reasoning_effort).toBe("deeper");
    // "off" is not offered: it clamps up to the lowest level the map keeps.
    expect((await send(mapped, { thinkingLevel: "off" })).body.reasoning_effort).toBe("lite");
  });
});
