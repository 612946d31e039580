import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Kernel } from "../../kernel/kernel.js";
import type { Model } from "../../lib/llm/index.js";
import { VENDOR_PLUGINS, bootKernel, removeDir, tempDir } from "../../test/fake-llm/harness.js";

let agentDir: string;
let kernel: Kernel;
const invoke = (name: string, raw: Record<string, unknown> = {}) => kernel.commands.invoke(name, raw) as Promise<any>;
const settings = async () => JSON.parse(await readFile(join(agentDir, "settings.json"), "utf8"));

async function boot(env: NodeJS.ProcessEnv, modelsJson?: unknown, cliModel?: string): Promise<void> {
  if (modelsJson) await writeFile(join(agentDir, "models.json"), JSON.stringify(modelsJson));
  kernel = await bootKernel({ agentDir, env, plugins: VENDOR_PLUGINS, ...(cliModel ? { cli: { model: cliModel } } : {}) });
}

beforeEach(async () => {
  agentDir = await tempDir();
});
afterEach(() => removeDir(agentDir));

const SOLO = { providers: { solo: { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", apiKey: "k", models: [{ id: "only-one", reasoning: true }] } } };

describe("model commands", () => {
  it("get_available_models lists full Model objects of providers with credentials", async () => {
    await boot({ ANTHROPIC_API_KEY: "a" });
    const { models } = await invoke("get_available_models");
    expect(models.length).toBeGreaterThan(3);
    expect(models.every((m: Model) => m.provider === "anthropic")).toBe(true);
    expect(Object.keys(models[0]).sort()).toEqual(expect.arrayContaining(["id", "name", "api", "provider", "baseUrl", "reasoning", "input", "cost", "contextWindow", "maxTokens"]));
  });

  it("set_model switches, returns the Model and leaves the saved default alone (pi 1.6)", async () => {
    await boot({ ANTHROPIC_API_KEY: "a" });
    const model = await invoke("set_model", { provider: "anthropic", modelId: "claude-haiku-4-5" });
    expect(model).toMatchObject({ provider: "anthropic", id: "claude-haiku-4-5", name: expect.stringMatching(/^Claude Haiku 4\.5/) });
    expect((await invoke("get_state")).model.id).toBe("claude-haiku-4-5");
    expect(await settings().catch(() => ({}))).not.toHaveProperty("defaultModel");
    await invoke("cycle_model");
    expect(await settings().catch(() => ({}))).not.toHaveProperty("defaultModel");
  });

  it("set_model rejects unknown and unavailable models", async () => {
    await boot({ ANTHROPIC_API_KEY: "a" });
    await expect(invoke("set_model", { provider: "anthropic", modelId: "nope" })).rejects.toThrow("Model not found: anthropic/nope");
    // Listed, but without a key: what it lacks (docs/decisions.md: missing credentials), not "not found".
    await expect(invoke("set_model", { provider: "openai", modelId: "gpt-4o" })).rejects.toThrow(/^No API key found for openai\. .*OPENAI_API_KEY/);
    expect((await invoke("get_state")).model.provider).toBe("anthropic");
    await expect(invoke("set_model", { provider: "anthropic" })).rejects.toThrow("Invalid modelId: expected string");
  });

  it("cycle_model returns null with one model, else the next one (wrapping, both directions)", async () => {
    await boot({}, SOLO);
    expect(await invoke("cycle_model")).toBeNull();
    await removeDir(agentDir);
    agentDir = await tempDir();
    await boot({ GEMINI_API_KEY: "g" });
    const available = (await invoke("get_available_models")).models as Model[];
    expect((await invoke("get_state")).model.id).toBe(available[0]!.id);
    const next = await invoke("cycle_model");
    expect(next).toEqual({ model: available[1], thinkingLevel: expect.any(String), isScoped: false });
    expect((await invoke("cycle_model", { direction: "backward" })).model.id).toBe(available[0]!.id);
    expect((await invoke("cycle_model", { direction: "backward" })).model.id).toBe(available.at(-1)!.id);
  });

  it("set_thinking_level clamps to the model, never fails for a known level and leaves the saved default alone (pi 1.6)", async () => {
    await writeFile(join(agentDir, "settings.json"), JSON.stringify({ defaultThinkingLevel: "xhigh" }));
    await boot({ ANTHROPIC_API_KEY: "a", OPENAI_API_KEY: "o" });
    await invoke("set_model", { provider: "anthropic", modelId: "claude-haiku-4-5" });
    expect(await invoke("set_thinking_level", { level: "high" })).toBeUndefined();
    expect((await invoke("get_state")).thinkingLevel).toBe("high");
    await invoke("set_thinking_level", { level: "xhigh" });
    expect((await invoke("get_state")).thinkingLevel).toBe("high");
    await invoke("set_model", { provider: "anthropic", modelId: "claude-opus-4-6" });
    await invoke("set_thinking_level", { level: "max" });
    expect((await invoke("get_state")).thinkingLevel).toBe("max");
    await invoke("set_thinking_level", { level: "minimal" });
    expect((await invoke("get_state")).thinkingLevel).toBe("low");
    await invoke("cycle_thinking_level");
    expect(await settings()).toEqual({ defaultThinkingLevel: "xhigh" });
    await invoke("set_model", { provider: "openai", modelId: "gpt-4o" });
    await invoke("set_thinking_level", { level: "high" });
    expect((await invoke("get_state")).thinkingLevel).toBe("off");
    await expect(invoke("set_thinking_level", { level: "extreme" })).rejects.toThrow(/^Invalid level/);
  });

  it("cycle_thinking_level and get_available_thinking_levels follow the model", async () => {
    await boot({ ANTHROPIC_API_KEY: "a", OPENAI_API_KEY: "o" });
    await invoke("set_model", { provider: "anthropic", modelId: "claude-haiku-4-5" });
    expect(await invoke("get_available_thinking_levels")).toEqual({ levels: ["off", "minimal", "low", "medium", "high"] });
    await invoke("set_thinking_level", { level: "high" });
    expect(await invoke("cycle_thinking_level")).toEqual({ level: "off" });
    expect(await invoke("cycle_thinking_level")).toEqual({ level: "minimal" });
    await invoke("set_model", { provider: "anthropic", modelId: "claude-opus-4-6" });
    expect(await invoke("get_available_thinking_levels")).toEqual({ levels: ["off", "low", "medium", "high", "max"] });
    await invoke("set_model", { provider: "openai", modelId: "gpt-4o" });
    expect(await invoke("get_available_thinking_levels")).toEqual({ levels: ["off"] });
    expect(await invoke("cycle_thinking_level")).toBeNull();
  });

  it("logout_provider removes the stored key and reports what remains", async () => {
    await boot({ OPENAI_API_KEY: "sk-env" });
    const models = kernel.services.get("models");
    await models.storeApiKey("anthropic", "sk-a");
    await models.storeApiKey("openai", "sk-o");
    const anthropic = await invoke("logout_provider", { provider: "anthropic" });
    expect(anthropic).toMatchObject({ provider: "anthropic", authStatus: { configured: false }, scopedModels: [] });
    expect(anthropic.models.some((m: Model) => m.provider === "anthropic")).toBe(false);
    expect(anthropic.models.some((m: Model) => m.provider === "openai")).toBe(true);
    const openai = await invoke("logout_provider", { provider: "openai" });
    expect(openai.authStatus).toEqual({ configured: true, source: "environment", label: "OPENAI_API_KEY" });
    expect(JSON.parse(await readFile(join(agentDir, "auth.json"), "utf8"))).toEqual({});
    // Twice is fine; a name that is no provider, or none at all, is an error that says so.
    expect(await invoke("logout_provider", { provider: "anthropic" })).toMatchObject({ provider: "anthropic", authStatus: { configured: false } });
    await expect(invoke("logout_provider", { provider: "anthropc" })).rejects.toThrow('Unknown provider: anthropc. Did you mean "anthropic"?');
    await expect(invoke("logout_provider", { provider: "" })).rejects.toThrow("Invalid provider: expected a string of at least 1 characters");
  });

  it("applies a CLI model with a thinking suffix at startup", async () => {
    await boot({ ANTHROPIC_API_KEY: "a" }, undefined, "anthropic/claude-haiku-4-5:low");
    expect(await invoke("get_state")).toMatchObject({ model: { id: "claude-haiku-4-5" }, thinkingLevel: "low" });
  });
});
