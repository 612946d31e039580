/**
 * Catalog providers in the registry: known (names, keys, status) at once, their models built
 * only when first asked for, models.json patches applied as they are built; credentials for
 * providers that need no key (a local server) or find their own (ambient AWS/Google credentials).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Model } from "../../lib/llm/index.js";
import { removeDir, tempDir } from "../../test/fake-llm/harness.js";
import { ModelRegistry } from "./registry.js";
import { resolveModelPattern } from "./resolve.js";
import { resolveStartupModel } from "./startup.js";

let agentDir: string;
beforeAll(async () => {
  agentDir = await tempDir();
});
afterAll(() => removeDir(agentDir));

const model = (provider: string, id: string): Model => ({
  id,
  name: id,
  api: "openai-completions",
  provider,
  baseUrl: "https://example.test/v1",
  reasoning: false,
  input: ["text"],
  cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 1000,
  maxTokens: 100,
});

async function registry(env: NodeJS.ProcessEnv = {}, modelsJson?: object): Promise<ModelRegistry> {
  const dir = join(agentDir, String(Math.random()).slice(2));
  const { mkdir } = await import("node:fs/promises");
  await mkdir(dir, { recursive: true });
  if (modelsJson) await writeFile(join(dir, "models.json"), JSON.stringify(modelsJson));
  const r = new ModelRegistry({ env, agentDir: dir });
  await r.loadConfig();
  return r;
}

describe("lazy catalog providers", () => {
  it("answers for a provider without building its models, and builds them once when first asked", async () => {
    const r = await registry({ GROQ_API_KEY: "g" });
    const groq = vi.fn(() => [model("groq", "a"), model("groq", "b")]);
    const other = vi.fn(() => [model("other", "c")]);
    r.registerCatalogProvider({ name: "groq", api: "openai-completions", baseUrl: "https://example.test/v1", envKey: "GROQ_API_KEY" }, groq);
    r.registerCatalogProvider({ name: "other", api: "openai-completions", envKey: "OTHER_KEY" }, other);
    expect(r.providers()).toEqual(["groq", "other"]);
    expect(r.hasProvider("other")).toBe(true);
    expect(r.authStatus("groq")).toEqual({ configured: true, source: "environment", label: "GROQ_API_KEY" });
    expect(r.providerInfo("other")).toEqual({ api: "openai-completions", envKey: "OTHER_KEY" });
    expect(groq).not.toHaveBeenCalled();
    expect(r.find("groq", "b")?.id).toBe("b");
    // Only the providers with a key are built for the available list.
    expect(r.available().map((m) => m.id)).toEqual(["a", "b"]);
    expect(other).not.toHaveBeenCalled();
    expect(r.all().map((m) => m.id)).toEqual(["a", "b", "c"]);
    expect(groq).toHaveBeenCalledTimes(1);
    expect(other).toHaveBeenCalledTimes(1);
  });

  it("resolves a provider's model (provider/id, --provider) without building the other catalogs", async () => {
    const r = await registry({ GROQ_API_KEY: "g" });
    const groq = vi.fn(() => [model("groq", "llama-70b")]);
    const other = vi.fn(() => [model("other", "llama-70b")]);
    r.registerCatalogProvider({ name: "groq", api: "openai-completions", envKey: "GROQ_API_KEY" }, groq);
    r.registerCatalogProvider({ name: "other", api: "openai-completions" }, other);
    expect(resolveModelPattern(r, undefined, "groq/llama-70b")?.model.provider).toBe("groq");
    expect(resolveModelPattern(r, "groq", "70b")?.model.id).toBe("llama-70b");
    expect(resolveModelPattern(r, undefined, "groq/llama-70b:high")).toMatchObject({ model: { id: "llama-70b" }, thinkingLevel: "high" });
    expect(resolveStartupModel(r, { positionals: [], provider: "groq" }, {}).model?.id).toBe("llama-70b");
    expect(other).not.toHaveBeenCalled();
    // A bare pattern searches every catalog.
    expect(resolveModelPattern(r, undefined, "70b")?.model.provider).toBe("groq");
    expect(other).toHaveBeenCalledTimes(1);
  });

  it("a bare id builds only the catalogs whose id lists hold it", async () => {
    const r = await registry({ OTHER_KEY: "o" });
    const groq = vi.fn(() => [model("groq", "llama-70b")]);
    const other = vi.fn(() => [model("other", "Llama-70B"), model("other", "mini")]);
    const third = vi.fn(() => [model("third", "x")]);
    r.registerCatalogProvider({ name: "groq", api: "openai-completions", envKey: "GROQ_API_KEY" }, groq, ["llama-70b"]);
    r.registerCatalogProvider({ name: "other", api: "openai-completions", envKey: "OTHER_KEY" }, other, ["Llama-70B", "mini"]);
    r.registerCatalogProvider({ name: "third", api: "openai-completions" }, third, ["x"]);
    // Both list it; the one with a key wins.
    expect(resolveModelPattern(r, undefined, "llama-70b")?.model.provider).toBe("other");
    expect(third).not.toHaveBeenCalled();
    expect(r.modelsWithId("MINI").map((m) => m.provider)).toEqual(["other"]);
  });

  it("builds a provider models.json patches at once, with the patch applied", async () => {
    const r = await registry({}, { providers: { groq: { baseUrl: "http://proxy.test/v1", modelOverrides: { a: { contextWindow: 500 } } } } });
    const load = vi.fn(() => [model("groq", "a")]);
    r.registerCatalogProvider({ name: "groq", api: "openai-completions", envKey: "GROQ_API_KEY" }, load);
    expect(load).toHaveBeenCalledTimes(1);
    expect(r.find("groq", "a")).toMatchObject({ baseUrl: "http://proxy.test/v1", contextWindow: 500 });
    expect(r.providerInfo("groq")?.baseUrl).toBe("http://proxy.test/v1");
  });

  it("adds models to a catalog provider registered again (a local server's list)", async () => {
    const r = await registry();
    r.registerCatalogProvider({ name: "vllm", api: "openai-completions", baseUrl: "http://127.0.0.1:8000/v1", requiresAuth: false }, () => []);
    r.registerProvider({ name: "vllm", api: "openai-completions", models: [model("vllm", "qwen3:8b")] });
    expect(r.all().map((m) => `${m.provider}/${m.id}`)).toEqual(["vllm/qwen3:8b"]);
    expect(r.authStatus("vllm")).toEqual({ configured: true, source: "none" });
  });
});

describe("keyless and ambient credentials", () => {
  it("a local server: no key needed, the request goes out keyless (a key in its variable is still sent)", async () => {
    const r = await registry({ VLLM_API_KEY: "local-secret" });
    r.registerProvider({ name: "ollama", api: "openai-completions", requiresAuth: false, models: [model("ollama", "m")] });
    r.registerProvider({ name: "vllm", api: "openai-completions", requiresAuth: false, envKey: "VLLM_API_KEY", models: [model("vllm", "m")] });
    const signal = new AbortController().signal;
    expect(await r.requestCredentials(r.find("ollama", "m")!, signal)).toMatchObject({ keyless: true });
    const vllm = await r.requestCredentials(r.find("vllm", "m")!, signal);
    expect(vllm).toMatchObject({ apiKey: "local-secret" });
    expect(vllm.keyless).toBeUndefined();
  });

  it("ambient credentials count when every variable of a group is set, and make the request keyless", async () => {
    const groups = [["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"], ["AWS_PROFILE"]];
    const register = (r: ModelRegistry) =>
      r.registerProvider({
        name: "amazon-bedrock",
        api: "anthropic-bedrock",
        envKey: "AWS_BEARER_TOKEN_BEDROCK",
        ambientAuth: groups,
        models: [model("amazon-bedrock", "claude")],
      });
    const none = await registry({ AWS_ACCESS_KEY_ID: "a" });
    register(none);
    expect(none.authStatus("amazon-bedrock")).toEqual({ configured: false });
    expect(none.available()).toEqual([]);
    const keys = await registry({ AWS_ACCESS_KEY_ID: "a", AWS_SECRET_ACCESS_KEY: "s" });
    register(keys);
    expect(keys.authStatus("amazon-bedrock")).toEqual({ configured: true, source: "environment", label: "AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY" });
    expect(await keys.requestCredentials(keys.find("amazon-bedrock", "claude")!, new AbortController().signal)).toMatchObject({ keyless: true });
    // A Bedrock API key, when set, is the credential (sent as a bearer token).
    const token = await registry({ AWS_BEARER_TOKEN_BEDROCK: "t", AWS_PROFILE: "p" });
    register(token);
    expect(token.authStatus("amazon-bedrock")).toMatchObject({ label: "AWS_BEARER_TOKEN_BEDROCK" });
    const credentials = await token.requestCredentials(token.find("amazon-bedrock", "claude")!, new AbortController().signal);
    expect(credentials).toMatchObject({ apiKey: "t" });
    expect(credentials.keyless).toBeUndefined();
  });
});
