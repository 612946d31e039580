/**
 * pi's model fields in models.json that Atomic once accepted and dropped without a word (issue 36,
 * D8, D12), over real HTTP to the loopback fake: `samplingParams` (and per thinking level) reach
 * the body of the OpenAI-compatible APIs, `cost.tiers` price the call; what Atomic does not apply
 * (`promptCache`, `inputLimits`, `samplingParams` on another API, `compat.supportsStrictTools`)
 * is said once, naming the file.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kernel } from "../../kernel/kernel.js";
import type { Model } from "../../lib/llm/index.js";
import { useFakeLlm } from "../helpers/use-fake-llm.js";
import { VENDOR_PLUGINS, bootKernel, removeDir, runStream, streamRequest, tempDir } from "./harness.js";

const fake = useFakeLlm();
let agentDir: string;
let kernel: Kernel;
const warnings: string[] = [];

beforeAll(async () => {
  agentDir = await tempDir();
  const sampling = { samplingParams: { temperature: 0.2, top_k: 20 }, samplingParamsByThinkingLevel: { high: { temperature: 0.6 } } };
  const providers = {
    deepseek: { baseUrl: fake.url, modelOverrides: { "deepseek-v4-pro": { ...sampling, cost: { tiers: [{ inputTokensAbove: 100_000, input: 10, output: 20 }] } } } },
    openai: { baseUrl: `${fake.url}/v1`, modelOverrides: { "gpt-6.2-sol": { samplingParams: { top_p: 0.9 }, promptCache: { short: 300 } } } },
    anthropic: {
      baseUrl: fake.url,
      compat: { supportsStrictTools: true },
      modelOverrides: { "claude-opus-5-5": { samplingParams: { top_k: 5 }, inputLimits: { images: { maxPerMessage: 2 } } } },
    },
  };
  await writeFile(join(agentDir, "models.json"), JSON.stringify({ providers }));
  const log = { info() {}, error() {}, warn: (message: string) => void warnings.push(message) };
  kernel = await bootKernel({ agentDir, env: { DEEPSEEK_API_KEY: "ds", OPENAI_API_KEY: "oai", ANTHROPIC_API_KEY: "ant" }, plugins: VENDOR_PLUGINS, log });
});
afterAll(() => removeDir(agentDir));

const find = (provider: string, id: string): Model => kernel.services.get("models").find(provider, id)!;

async function body(model: Model, thinkingLevel: "off" | "high", usage = { input: 10, output: 5 }) {
  fake.requests.length = 0;
  fake.script({ text: "ok", usage });
  const { final } = await runStream(kernel, streamRequest(model, { thinkingLevel }));
  expect(final.type, final.type === "error" ? final.error.errorMessage : "").toBe("done");
  return { request: fake.requests[0]!.body, message: final.type === "done" ? final.message : undefined };
}

describe("samplingParams (D8)", () => {
  it("Chat Completions: merged last into the body, the thinking level's over the model's", async () => {
    const model = find("deepseek", "deepseek-v4-pro");
    expect((await body(model, "off")).request).toMatchObject({ temperature: 0.2, top_k: 20 });
    expect((await body(model, "high")).request).toMatchObject({ temperature: 0.6, top_k: 20 });
  });

  it("Responses", async () => {
    expect((await body(find("openai", "gpt-6.2-sol"), "high")).request).toMatchObject({ top_p: 0.9 });
  });

  it("Anthropic: not sent, and said so once", async () => {
    expect((await body(find("anthropic", "claude-opus-5-5"), "high")).request.top_k).toBeUndefined();
    expect(warnings.filter((w) => w.startsWith("samplingParams for provider anthropic (anthropic-messages)"))).toHaveLength(1);
  });
});

describe("cost.tiers (D8)", () => {
  it("a call above the tier's threshold is priced at the tier", async () => {
    const { message } = await body(find("deepseek", "deepseek-v4-pro"), "off", { input: 200_000, output: 1_000_000 });
    expect(message!.usage.cost).toMatchObject({ input: 2, output: 20 });
  });
});

describe("fields Atomic does not apply are said, naming the file", () => {
  it("promptCache, inputLimits (D8) and compat.supportsStrictTools (D12)", () => {
    const file = join(agentDir, "models.json");
    expect(warnings).toContain(`promptCache in ${file} is read by pi and not applied by Atomic (Atomic does not warm prompt caches); it is ignored.`);
    expect(warnings).toContain(`inputLimits in ${file} is read by pi and not applied by Atomic (Atomic does not resize or count images per model); it is ignored.`);
    expect(warnings.find((w) => w.startsWith("supportsStrictTools for provider anthropic"))).toMatch(/is ignored: Atomic's tools never ask for strict/);
  });
});
