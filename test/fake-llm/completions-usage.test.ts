/**
 * Usage on the Chat Completions wire, through the openai SDK over real HTTP to the loopback fake
 * (issue 36): DeepSeek, OpenRouter and Mistral send usage only when asked (D3); Kimi and Moonshot
 * report cache hits at the top level of the usage record (D2); OpenRouter's `cached_tokens` counts
 * reads only and its billed `usage.cost` is the call's total (D4).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kernel } from "../../kernel/kernel.js";
import type { AssistantMessage, Model } from "../../lib/llm/index.js";
import { classifyError } from "../../lib/provider-kit/index.js";
import { useFakeLlm } from "../helpers/use-fake-llm.js";
import { VENDOR_PLUGINS, bootKernel, removeDir, runStream, streamRequest, tempDir } from "./harness.js";
import type { RecordedRequest } from "./server.js";

const fake = useFakeLlm();
let agentDir: string;
let kernel: Kernel;

beforeAll(async () => {
  agentDir = await tempDir();
  const providers = Object.fromEntries(["deepseek", "openrouter", "moonshotai", "kimi-coding", "mistral", "zai"].map((name) => [name, { baseUrl: fake.url }]));
  await writeFile(join(agentDir, "models.json"), JSON.stringify({ providers }));
  const env = { ZAI_API_KEY: "zai", DEEPSEEK_API_KEY: "ds", OPENROUTER_API_KEY: "or", MOONSHOT_API_KEY: "ms", KIMI_API_KEY: "kimi", MISTRAL_API_KEY: "mis" };
  kernel = await bootKernel({ agentDir, env, plugins: VENDOR_PLUGINS });
});
afterAll(() => removeDir(agentDir));

const first = (provider: string): Model => kernel.services.get("models").modelsOf(provider)[0]!;

/** Usage as the real services send it: only when the request asks for it. */
const usageWhenAsked = (usage: Record<string, unknown>) => (request: RecordedRequest) => ({
  text: "ok",
  chatUsage: request.body?.stream_options?.include_usage === true ? usage : null,
});

async function answer(target: Model, usage: Record<string, unknown>): Promise<AssistantMessage> {
  fake.script(usageWhenAsked(usage));
  const { final } = await runStream(kernel, streamRequest(target));
  expect(final.type, final.type === "error" ? final.error.errorMessage : "").toBe("done");
  return final.type === "done" ? final.message : final.partial;
}

describe("streamed usage is asked for (D3)", () => {
  it.each(["deepseek", "openrouter"])("%s: stream_options.include_usage is sent and the usage recorded", async (provider) => {
    fake.requests.length = 0;
    const message = await answer(first(provider), { prompt_tokens: 2_000_000, completion_tokens: 1_000_000 });
    expect(fake.requests[0]!.body.stream_options).toEqual({ include_usage: true });
    expect(message.usage).toMatchObject({ input: 2_000_000, output: 1_000_000 });
    expect(message.usage.cost.total).toBeGreaterThan(0);
  });
});

describe("Kimi and Moonshot: cache hits in the top-level usage.cached_tokens (D2)", () => {
  it.each(["moonshotai", "kimi-coding"])("%s", async (provider) => {
    const target = first(provider);
    const message = await answer(target, { prompt_tokens: 1_000_000, completion_tokens: 10, total_tokens: 1_000_010, cached_tokens: 600_000 });
    expect(message.usage).toMatchObject({ input: 400_000, cacheRead: 600_000, output: 10 });
    expect(message.usage.cost.cacheRead).toBeCloseTo(target.cost.cacheRead * 0.6, 10);
  });
});

describe("OpenRouter accounting (D4)", () => {
  it("cached_tokens are reads, cache_write_tokens writes, apart: nothing subtracted from the reads", async () => {
    const message = await answer(first("openrouter"), {
      prompt_tokens: 10_000,
      completion_tokens: 100,
      prompt_tokens_details: { cached_tokens: 6_000, cache_write_tokens: 3_000 },
    });
    expect(message.usage).toMatchObject({ input: 1_000, cacheRead: 6_000, cacheWrite: 3_000, output: 100 });
  });

  it("the billed usage.cost is the total (credits); a bring-your-own-key call adds the upstream cost", async () => {
    const target = first("openrouter");
    const credits = await answer(target, { prompt_tokens: 1_000, completion_tokens: 100, cost: 0.0123, is_byok: false });
    expect(credits.usage.cost.total).toBe(0.0123);
    expect(credits.usage.cost.input).toBeCloseTo((target.cost.input * 1_000) / 1_000_000, 12);
    const byok = await answer(target, {
      prompt_tokens: 1_000,
      completion_tokens: 100,
      cost: 0.001,
      is_byok: true,
      cost_details: { upstream_inference_cost: null, upstream_inference_prompt_cost: 0.02, upstream_inference_completions_cost: 0.03 },
    });
    expect(byok.usage.cost.total).toBeCloseTo(0.051, 12);
    // Without a complete bill, the catalog's prices decide.
    const unbilled = await answer(target, { prompt_tokens: 1_000, completion_tokens: 100, cost: 0.5, is_byok: true });
    const { input, output, cacheRead, cacheWrite, total } = unbilled.usage.cost;
    expect(total).toBeCloseTo(input + output + cacheRead + cacheWrite, 12);
  });
});

describe("z.ai: a prompt over the window ends with finish_reason model_context_window_exceeded (D10)", () => {
  it("is an error classified as an overflow (compaction), not a retry", async () => {
    const target = first("zai");
    fake.script({ text: "", finishReason: "model_context_window_exceeded" });
    const { final } = await runStream(kernel, streamRequest(target));
    expect(final.type).toBe("error");
    const message = final.type === "error" ? final.error.errorMessage : "";
    expect(classifyError(message, target)).toBe("overflow");
  });
});
