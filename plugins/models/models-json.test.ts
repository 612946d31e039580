import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { builtinProviders, removeDir, tempDir } from "../../test/fake-llm/harness.js";

import { parseModelsJson } from "./models-json.js";
import { ModelRegistry } from "./registry.js";

let agentDir: string;
let warnings: string[];

beforeEach(async () => {
  agentDir = await tempDir();
  warnings = [];
});
afterEach(() => removeDir(agentDir));

async function registryWith(modelsJson: unknown, env: NodeJS.ProcessEnv = {}): Promise<ModelRegistry> {
  if (modelsJson !== undefined) await writeFile(join(agentDir, "models.json"), typeof modelsJson === "string" ? modelsJson : JSON.stringify(modelsJson));
  const registry = new ModelRegistry({ env, agentDir, warn: (message) => warnings.push(message) });
  await registry.loadConfig();
  for (const provider of await builtinProviders()) registry.registerProvider(provider);
  registry.registerCustomProviders();
  return registry;
}

describe("models.json", () => {
  it("adds a custom OpenAI-compatible provider with pi's model defaults", async () => {
    const registry = await registryWith({
      providers: { homelab: { baseUrl: "http://localhost:11434/v1", api: "openai-completions", apiKey: "homelab", models: [{ id: "llama3.1:8b" }] } },
    });
    expect(registry.find("homelab", "llama3.1:8b")).toEqual({
      id: "llama3.1:8b",
      name: "llama3.1:8b",
      api: "openai-completions",
      provider: "homelab",
      baseUrl: "http://localhost:11434/v1",
      reasoning: false,
      input: ["text"],
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      contextWindow: 128000,
      maxTokens: 16384,
    });
    expect(registry.authStatus("homelab")).toEqual({ configured: true, source: "models_json", label: "models.json" });
    expect(registry.available().some((m) => m.provider === "homelab")).toBe(true);
    expect(warnings).toEqual([]);
  });

  it("re-points every built-in model of a provider with a baseUrl-only entry", async () => {
    const registry = await registryWith({ providers: { anthropic: { baseUrl: "http://proxy.local" } } });
    const models = registry.all().filter((m) => m.provider === "anthropic");
    expect(models.length).toBeGreaterThan(3);
    expect(models.every((m) => m.baseUrl === "http://proxy.local")).toBe(true);
    expect(registry.find("anthropic", "claude-haiku-4-5")?.cost.input).toBe(1);
  });

  it("patches, adds and replaces models of a built-in provider; headers and compat merge", async () => {
    const registry = await registryWith({
      providers: {
        openai: {
          headers: { "X-Team": "core" },
          compat: { nested: { a: 1 } },
          modelOverrides: { "gpt-4o": { name: "GPT-4o (team)", compat: { nested: { b: 2 } } } },
          models: [
            { id: "gpt-5.2", contextWindow: 272000 },
            { id: "my-finetune", name: "Mine", reasoning: true, input: ["text", "image"] },
          ],
        },
      },
    });
    expect(registry.find("openai", "gpt-4o")).toMatchObject({ name: "GPT-4o (team)", headers: { "X-Team": "core" }, compat: { nested: { a: 1, b: 2 } } });
    expect(registry.find("openai", "gpt-5.2")).toMatchObject({ contextWindow: 272000, cost: { input: 1.75 } });
    expect(registry.find("openai", "my-finetune")).toMatchObject({ api: "openai-responses", baseUrl: "https://api.openai.com/v1", reasoning: true, input: ["text", "image"] });
  });

  it("reports an invalid file naming the file and the key, and keeps the built-ins", async () => {
    const registry = await registryWith({ providers: { custom: { baseUrl: 42, models: [] } } });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(join(agentDir, "models.json"));
    expect(warnings[0]).toContain("providers.custom.baseUrl");
    expect(registry.find("anthropic", "claude-opus-4-6")).toBeDefined();
    expect(registry.hasProvider("custom")).toBe(false);
  });

  it("reports broken JSON and a custom provider without an api", async () => {
    await registryWith("{ not json");
    expect(warnings[0]).toMatch(/Invalid JSON in .*models\.json/);
    warnings = [];
    const registry = await registryWith({ providers: { local: { baseUrl: "http://x", models: [{ id: "m" }] } } });
    expect(warnings[0]).toContain("providers.local.api");
    expect(registry.hasProvider("local")).toBe(false);
  });

  it("validates model fields by path", () => {
    const result = parseModelsJson(JSON.stringify({ providers: { p: { models: [{ id: "m", input: ["text", "audio"] }, { id: "n" }] } } }), "/x/models.json");
    expect(result.error).toBeUndefined();
    expect(result.problems[0]).toMatch(
      /^Invalid models file \/x\/models\.json: Invalid providers\.p\.models\.0\.input\.1: .*\(entry skipped; p\/m refuses requests until it is fixed\)$/,
    );
    expect(result.file?.providers.p?.models?.map((m) => m.id)).toEqual(["n"]);
    expect(result.blocks.models.get("p\0m")).toMatch(/^p\/m is not usable: Invalid providers\.p\.models\.0\.input\.1/);
  });

  it("applies a block to a provider that registers later (plugin providers)", async () => {
    const registry = await registryWith({ providers: { replay: { baseUrl: "http://elsewhere" } } });
    expect(registry.hasProvider("replay")).toBe(false);
    registry.registerProvider({ name: "replay", api: "replay", requiresAuth: false, models: [{ ...registry.all()[0]!, provider: "replay", api: "replay", id: "demo" }] });
    expect(registry.find("replay", "demo")?.baseUrl).toBe("http://elsewhere");
    expect(registry.authStatus("replay")).toEqual({ configured: true, source: "none" });
  });
});
