import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { removeDir, tempDir } from "../../test/fake-llm/harness.js";
import { parseModelsJson } from "./models-json.js";
import { ModelRegistry } from "./registry.js";

const APIS = ["anthropic-messages", "openai-completions", "openai-responses"];
let agentDir: string;

beforeEach(async () => {
  agentDir = await tempDir();
});
afterEach(() => removeDir(agentDir));

async function registryWith(text: string): Promise<ModelRegistry> {
  await writeFile(join(agentDir, "models.json"), text);
  const registry = new ModelRegistry({ env: {}, agentDir });
  await registry.loadConfig();
  registry.registerCustomProviders();
  return registry;
}

describe("models.json beyond startup's checks", () => {
  it('a file without "providers" names the key it has that was meant', () => {
    const result = parseModelsJson(JSON.stringify({ provider: { local: {} } }), "/x/models.json");
    expect(result.error).toBe('Invalid models file /x/models.json: Invalid providers: expected an object of providers (the file has "provider": did you mean "providers"?)');
    expect(parseModelsJson("{}", "/x/models.json").error).toBe("Invalid models file /x/models.json: Invalid providers: expected an object of providers");
  });

  it("a parse error is placed by line and column in the file as written", () => {
    const result = parseModelsJson('{\n  // mine\n  "providers": {} "x": 1\n}', "/x/models.json");
    expect(result.error).toMatch(/^Invalid JSON in \/x\/models\.json: .+ at line 3, column 19$/);
  });

  it("names an api no provider serves with the one meant, and keys that are a slip of a known one, by key path", async () => {
    const path = join(agentDir, "models.json");
    const registry = await registryWith(
      JSON.stringify({
        providers: {
          local: {
            baseURL: "http://127.0.0.1:1/v1",
            api: "openai-completion",
            apiKey: "k",
            models: [
              { id: "qwen", contextWindo: 8 },
              { id: "big", api: "openai-responses" },
            ],
          },
          openai: { modelOverrides: { "gpt-4o": { api: "anthropic-message", maxToken: 9 } }, autoApprove: true },
        },
      }),
    );
    expect(await registry.checkConfig(APIS)).toEqual([
      `Unknown key "providers.local.baseURL" in ${path} (did you mean "baseUrl"?): Atomic does not read it, ignored`,
      `Invalid models file ${path}: Invalid providers.local.api: "openai-completion" is no API a provider serves; expected one of anthropic-messages, openai-completions, openai-responses. Did you mean "openai-completions"?`,
      `Unknown key "providers.local.models.0.contextWindo" in ${path} (did you mean "contextWindow"?): Atomic does not read it, ignored`,
      `Unknown key "providers.openai.modelOverrides.gpt-4o.maxToken" in ${path} (did you mean "maxTokens"?): Atomic does not read it, ignored`,
      `Invalid models file ${path}: Invalid providers.openai.modelOverrides.gpt-4o.api: "anthropic-message" is no API a provider serves; expected one of anthropic-messages, openai-completions, openai-responses. Did you mean "anthropic-messages"?`,
    ]);
  });

  it("says which models.json key set a model's api", async () => {
    const path = join(agentDir, "models.json");
    const registry = await registryWith(
      JSON.stringify({ providers: { local: { baseUrl: "http://127.0.0.1:1/v1", api: "openai-completion", apiKey: "k", models: [{ id: "qwen" }, { id: "big", api: "x-api" }] } } }),
    );
    expect(registry.apiOrigin(registry.find("local", "qwen")!)).toBe(`providers.local.api in ${path}`);
    expect(registry.apiOrigin(registry.find("local", "big")!)).toBe(`the "api" of model "big" in providers.local.models in ${path}`);
    expect(registry.apiOrigin({ provider: "anthropic", id: "claude", api: "anthropic-messages" })).toBeUndefined();
  });
});
