import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Kernel } from "../../kernel/kernel.js";
import type { OutEvent, Settings } from "../../kernel/index.js";
import { VENDOR_PLUGINS, bootKernel, removeDir, tempDir } from "../../test/fake-llm/harness.js";
import replayPlugin from "../provider-replay/index.js";
import { sessionHookDeclarations } from "../session/api.js";
import { UNSUPPORTED_DEFAULT_ERROR } from "./startup.js";

let agentDir: string;
let kernel: Kernel;
let events: OutEvent[];
const invoke = (name: string, raw: Record<string, unknown> = {}) => kernel.commands.invoke(name, raw) as Promise<any>;
const UNSUPPORTED: Settings = { defaultProvider: "nonexistent", defaultModel: "some-model" };

async function boot(settings: Settings, env: NodeJS.ProcessEnv = { ANTHROPIC_API_KEY: "a" }, cli: Record<string, string> = {}): Promise<void> {
  kernel = await bootKernel({ agentDir, settings, env, cli, plugins: VENDOR_PLUGINS });
  events = [];
  kernel.events.subscribe((event) => events.push(event));
}

beforeEach(async () => {
  agentDir = await tempDir();
});
afterEach(() => removeDir(agentDir));

describe("unsupported saved default provider", () => {
  it("keeps the process usable but rejects prompts with the exact message before any event", async () => {
    await boot(UNSUPPORTED);
    const state = await invoke("get_state");
    expect(state.modelFallbackReason).toBe("configured-provider-unsupported");
    expect(state.modelFallbackMessage).toMatch(/nonexistent/);
    await expect(invoke("prompt", { message: "hi" })).rejects.toThrow(UNSUPPORTED_DEFAULT_ERROR);
    expect(events).toEqual([]);
    expect((await invoke("get_available_models")).models.length).toBeGreaterThan(0);
    expect(await invoke("get_available_thinking_levels")).toHaveProperty("levels");
  });

  it("is cleared by a successful set_model", async () => {
    await boot(UNSUPPORTED);
    await expect(invoke("set_model", { provider: "nonexistent", modelId: "some-model" })).rejects.toThrow("Model not found: nonexistent/some-model");
    expect((await invoke("get_state")).modelFallbackReason).toBeDefined();
    await invoke("set_model", { provider: "anthropic", modelId: "claude-haiku-4-5" });
    const state = await invoke("get_state");
    expect(state.modelFallbackReason).toBeUndefined();
    expect(state.modelFallbackMessage).toBeUndefined();
    expect(await kernel.hook("prompt_preflight").promise({ text: "hi" })).toBeUndefined();
  });

  it("is cleared by a cycle to a different model, not by a null cycle", async () => {
    await boot(UNSUPPORTED, {});
    expect(await invoke("cycle_model")).toBeNull(); // nothing available
    expect((await invoke("get_state")).modelFallbackReason).toBe("configured-provider-unsupported");

    await removeDir(agentDir);
    agentDir = await tempDir();
    await boot(UNSUPPORTED);
    const before = (await invoke("get_state")).model;
    const cycled = await invoke("cycle_model");
    expect(cycled.model.id).not.toBe(before.id);
    expect((await invoke("get_state")).modelFallbackReason).toBeUndefined();
  });

  it("comes back when a new session starts", async () => {
    // A stand-in for the session plugin: the owner of session_start, so models can tap it.
    const sessionOwner = { name: "session", hooks: sessionHookDeclarations, apply() {} };
    kernel = await bootKernel({ agentDir, settings: UNSUPPORTED, env: { ANTHROPIC_API_KEY: "a" }, plugins: [sessionOwner, ...VENDOR_PLUGINS] });
    await invoke("set_model", { provider: "anthropic", modelId: "claude-haiku-4-5" });
    await kernel.hook("session_start").promise({ reason: "new" });
    expect((await invoke("get_state")).modelFallbackReason).toBe("configured-provider-unsupported");
    expect(await kernel.hook("prompt_preflight").promise({ text: "hi" })).toBe(UNSUPPORTED_DEFAULT_ERROR);
  });

  it("does not apply with a CLI model, an incomplete default, or a known provider", async () => {
    await boot(UNSUPPORTED, undefined, { model: "claude-haiku-4-5" });
    expect((await invoke("get_state")).modelFallbackReason).toBeUndefined();
    await boot({ defaultProvider: "nonexistent" });
    expect((await invoke("get_state")).modelFallbackReason).toBeUndefined();
    // Known provider, unknown model: ordinary fallback to the first available model.
    await boot({ defaultProvider: "anthropic", defaultModel: "claude-unknown" });
    const state = await invoke("get_state");
    expect(state.modelFallbackReason).toBeUndefined();
    expect(state.model.provider).toBe("anthropic");
  });
});

describe("startup choice", () => {
  it("never picks the keyless replay provider unless asked for", async () => {
    kernel = await bootKernel({ agentDir, plugins: [replayPlugin, ...VENDOR_PLUGINS] });
    expect((await invoke("get_state")).model).toBeNull();
    const listed = async () => (await invoke("get_available_models")).models.map((m: { provider: string; id: string }) => `${m.provider}/${m.id}`);
    // Not listed while not in use (a client picking "another model" never lands on a cassette), yet set_model reaches it.
    expect(await listed()).not.toContain("replay/demo");
    kernel = await bootKernel({ agentDir, plugins: [replayPlugin, ...VENDOR_PLUGINS], settings: { defaultProvider: "replay", defaultModel: "demo" } });
    expect((await invoke("get_state")).model).toMatchObject({ provider: "replay", id: "demo" });
    expect(await listed()).toContain("replay/demo");
    kernel = await bootKernel({
      agentDir,
      plugins: [replayPlugin, ...VENDOR_PLUGINS],
      env: { ANTHROPIC_API_KEY: "k" },
      settings: { enabledModels: ["replay/demo", "anthropic/*"] },
    });
    expect(await listed()).toContain("replay/demo");
    kernel = await bootKernel({ agentDir, plugins: [replayPlugin, ...VENDOR_PLUGINS], cli: { provider: "replay", model: "demo" } });
    expect((await invoke("get_state")).model).toMatchObject({ provider: "replay", id: "demo" });
    kernel = await bootKernel({ agentDir, plugins: [replayPlugin, ...VENDOR_PLUGINS], env: { GEMINI_API_KEY: "g" } });
    expect((await invoke("get_state")).model.provider).toBe("google");
    expect(await listed()).not.toContain("replay/demo");
    // Chosen (and saved as the default), it is listed.
    await invoke("set_model", { provider: "replay", modelId: "demo" });
    expect(await listed()).toContain("replay/demo");
  });
});

describe("prompt preflight", () => {
  it("needs a model", async () => {
    await boot({}, {});
    await expect(invoke("prompt", { message: "hi" })).rejects.toThrow(/^No model selected\./);
    expect(events).toEqual([]);
  });

  it("needs credentials for the model's provider", async () => {
    await boot({}, {}, { model: "anthropic/claude-haiku-4-5" });
    await expect(invoke("prompt", { message: "hi" })).rejects.toThrow(/^No API key found for anthropic\./);
    expect(events).toEqual([]);
  });
});
