/**
 * models.json errors on the loopback recorder (issue 36, D1): an override's partial `cost` is
 * merged rate by rate as pi merges it (the file is not thrown away, so the request goes to the
 * configured `baseUrl`), and an entry that cannot be used is dropped alone; the model it was
 * about, a provider whose own fields are broken, or every provider when the file is not JSON,
 * refuses requests instead of reaching the provider's public address.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Kernel } from "../../kernel/kernel.js";
import type { Model } from "../../lib/llm/index.js";
import { useFakeLlm } from "../helpers/use-fake-llm.js";
import { VENDOR_PLUGINS, bootKernel, removeDir, runStream, streamRequest, tempDir } from "./harness.js";

const fake = useFakeLlm({ perTest: true });
const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

async function boot(models: unknown): Promise<{ kernel: Kernel; warnings: string[] }> {
  const agentDir = await tempDir();
  dirs.push(agentDir);
  await writeFile(join(agentDir, "models.json"), typeof models === "string" ? models : JSON.stringify(models));
  const warnings: string[] = [];
  const log = { info() {}, error() {}, warn: (message: string) => void warnings.push(message) };
  const kernel = await bootKernel({ agentDir, env: { OPENAI_API_KEY: "sk-oai", DEEPSEEK_API_KEY: "ds" }, plugins: VENDOR_PLUGINS, log });
  return { kernel, warnings };
}

const find = (kernel: Kernel, provider: string, id: string): Model => {
  const model = kernel.services.get("models").find(provider, id);
  if (!model) throw new Error(`no ${provider}/${id}`);
  return model;
};

async function ask(kernel: Kernel, model: Model) {
  fake.script({ text: "Hello", usage: { input: 100_000, output: 1_000_000 } });
  return (await runStream(kernel, streamRequest(model))).final;
}

describe("a modelOverrides entry with a partial cost (pi merges it rate by rate)", () => {
  it("keeps the rest of the file: the request goes to the configured baseUrl, priced with the merged rates", async () => {
    const { kernel, warnings } = await boot({
      providers: { openai: { baseUrl: `${fake.url}/v1`, modelOverrides: { "gpt-6.2-sol": { cost: { input: 1 } } } } },
    });
    expect(warnings).toEqual([]);
    const model = find(kernel, "openai", "gpt-6.2-sol");
    expect(model.baseUrl).toBe(`${fake.url}/v1`);
    expect(model.cost).toEqual({ input: 1, output: 10, cacheRead: 0.1, cacheWrite: 2.5 });
    const final = await ask(kernel, model);
    expect(final.type, final.type === "error" ? final.error.errorMessage : "").toBe("done");
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.path).toBe("/v1/responses");
    if (final.type === "done") expect(final.message.usage.cost).toMatchObject({ input: 0.1, output: 10 });
  });

  it("merges thinkingLevelMap, compat and headers into the model's own; tiers in pi's cost.tiers form", async () => {
    const { kernel } = await boot({
      providers: {
        openai: {
          modelOverrides: {
            "gpt-6.2-sol": {
              thinkingLevelMap: { xhigh: null },
              headers: { "X-Team": "core" },
              cost: { tiers: [{ inputTokensAbove: 100_000, input: 3, output: 12, cacheRead: 0.3, cacheWrite: 3 }] },
            },
          },
        },
      },
    });
    const model = find(kernel, "openai", "gpt-6.2-sol");
    expect(model.thinkingLevels).toEqual(["low", "medium", "high", "max"]);
    expect(model.compat?.thinkingLevelMap).toEqual({ max: "max", xhigh: null });
    expect(model.headers).toEqual({ "X-Team": "core" });
    expect(model.cost).toEqual({ input: 2, output: 10, cacheRead: 0.1, cacheWrite: 2.5 });
    expect(model.costTiers).toEqual([{ aboveInputTokens: 100_000, cost: { input: 3, output: 12, cacheRead: 0.3, cacheWrite: 3 } }]);
  });
});

describe("an entry that cannot be used", () => {
  it("is dropped alone and reported with its path; its model refuses requests, the provider's others still go to the configured host", async () => {
    const { kernel, warnings } = await boot({
      providers: {
        openai: { baseUrl: `${fake.url}/v1`, modelOverrides: { "gpt-6.2-sol": { contextWindow: "big" }, "gpt-6.2-astra": { name: "Astra (team)" } } },
      },
    });
    const path = join(kernel.config.agentDir, "models.json");
    expect(warnings).toEqual([
      `Invalid models file ${path}: Invalid providers.openai.modelOverrides.gpt-6.2-sol.contextWindow: expected number (entry skipped; openai/gpt-6.2-sol refuses requests until it is fixed)`,
    ]);
    const broken = find(kernel, "openai", "gpt-6.2-sol");
    expect(broken.baseUrl).toBe(`${fake.url}/v1`);
    const refused = await ask(kernel, broken);
    expect(refused.type).toBe("error");
    if (refused.type === "error") {
      expect(refused.error.errorMessage).toBe(
        `openai/gpt-6.2-sol is not usable: Invalid providers.openai.modelOverrides.gpt-6.2-sol.contextWindow: expected number in ${path}. Fix the entry: requests are refused rather than sent without it.`,
      );
    }
    expect(fake.requests).toHaveLength(0);
    const other = find(kernel, "openai", "gpt-6.2-astra");
    expect(other.name).toBe("Astra (team)");
    expect((await ask(kernel, other)).type).toBe("done");
    expect(fake.requests.map((r) => r.path)).toEqual(["/v1/responses"]);
  });

  it("a provider whose own fields are broken refuses every request; other providers' blocks still apply", async () => {
    const { kernel, warnings } = await boot({ providers: { openai: { baseUrl: 42 }, deepseek: { baseUrl: fake.url } } });
    expect(warnings[0]).toContain("Invalid providers.openai.baseUrl: expected string (provider openai refuses requests until it is fixed)");
    const openai = kernel.services.get("models").modelsOf("openai")[0]!;
    const refused = await ask(kernel, openai);
    expect(refused.type === "error" && refused.error.errorMessage).toMatch(/^Provider openai is not usable: Invalid providers\.openai\.baseUrl: expected string in /);
    const deepseek = kernel.services.get("models").modelsOf("deepseek")[0]!;
    expect((await ask(kernel, deepseek)).type).toBe("done");
    expect(fake.requests.map((r) => r.path)).toEqual(["/chat/completions"]);
  });

  it("a file that is not JSON: every provider refuses requests, saying which file and why", async () => {
    const { kernel, warnings } = await boot(`{ "providers": { "openai": { "baseUrl": "${fake.url}/v1" } `);
    expect(warnings[0]).toMatch(/^Invalid JSON in .*models\.json: .*\(models\.json ignored: every provider refuses requests until it is fixed\)$/);
    const refused = await ask(kernel, find(kernel, "openai", "gpt-6.2-sol"));
    expect(refused.type === "error" && refused.error.errorMessage).toMatch(/^Invalid JSON in .*models\.json: .*Requests are refused until it is fixed/);
    expect(fake.requests).toHaveLength(0);
  });

  it("reads pi's // comments and trailing commas", async () => {
    const { kernel, warnings } = await boot(`{
      // the team proxy
      "providers": { "openai": { "baseUrl": "${fake.url}/v1", }, },
    }`);
    expect(warnings).toEqual([]);
    expect(find(kernel, "openai", "gpt-6.2-sol").baseUrl).toBe(`${fake.url}/v1`);
  });
});
