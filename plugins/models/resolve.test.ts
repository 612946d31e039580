import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinProviders, removeDir, tempDir } from "../../test/fake-llm/harness.js";

import { ModelRegistry } from "./registry.js";
import { resolveModelPattern, splitThinking } from "./resolve.js";
import { resolveStartupModel } from "./startup.js";

let agentDir: string;
let registry: ModelRegistry;
const cli = { positionals: [] as string[] };

beforeAll(async () => {
  agentDir = await tempDir();
  await writeFile(
    join(agentDir, "models.json"),
    JSON.stringify({
      providers: {
        local: { baseUrl: "http://localhost:1/v1", api: "openai-completions", apiKey: "k", models: [{ id: "llama3:8b" }, { id: "snap-20240101" }, { id: "snap-20250101" }] },
        mirror: { baseUrl: "http://localhost:2/v1", api: "openai-completions", models: [{ id: "gpt-4o" }] },
      },
    }),
  );
  registry = new ModelRegistry({ env: { OPENAI_API_KEY: "o" }, agentDir });
  await registry.loadConfig();
  for (const provider of await builtinProviders()) registry.registerProvider(provider);
  registry.registerCustomProviders();
});
afterAll(() => removeDir(agentDir));

const resolve = (pattern: string, provider?: string) => {
  const match = resolveModelPattern(registry, provider, pattern);
  return match && { ref: `${match.model.provider}/${match.model.id}`, level: match.thinkingLevel, warning: match.warning };
};

describe("model pattern resolution", () => {
  it("resolves provider/id and bare ids exactly, case-insensitively", () => {
    expect(resolve("anthropic/claude-haiku-4-5")?.ref).toBe("anthropic/claude-haiku-4-5");
    expect(resolve("Claude-Haiku-4-5")?.ref).toBe("anthropic/claude-haiku-4-5");
    expect(resolve("claude-haiku-4-5", "anthropic")?.ref).toBe("anthropic/claude-haiku-4-5");
  });

  it("prefers the model with credentials when a bare id is ambiguous", () => {
    expect(resolve("gpt-4o")?.ref).toBe("openai/gpt-4o");
    expect(resolve("mirror/gpt-4o")?.ref).toBe("mirror/gpt-4o");
  });

  it("matches fuzzy fragments, preferring aliases over dated snapshots, else the newest snapshot", () => {
    expect(resolve("sonnet")?.ref).toBe("anthropic/claude-sonnet-5-5");
    expect(resolve("snap")?.ref).toBe("local/snap-20250101");
    expect(resolve("Opus 4.7")?.ref).toBe("anthropic/claude-opus-4-7");
  });

  it("splits a :thinking suffix only when it is a level, after trying the full id", () => {
    expect(resolve("claude-sonnet-4-6:high")).toMatchObject({ ref: "anthropic/claude-sonnet-4-6", level: "high" });
    expect(resolve("anthropic/claude-opus-4-6:max")).toMatchObject({ ref: "anthropic/claude-opus-4-6", level: "max" });
    expect(resolve("llama3:8b")).toMatchObject({ ref: "local/llama3:8b", level: undefined });
    expect(resolve("gpt-4o:turbo")).toBeUndefined();
    expect(splitThinking("x:off")).toEqual({ pattern: "x", thinkingLevel: "off" });
  });

  it("uses a known provider's default settings for an unknown id, with a warning", () => {
    const match = resolve("claude-future-9", "anthropic");
    expect(match?.ref).toBe("anthropic/claude-future-9");
    expect(match?.warning).toMatch(/not in the anthropic catalog/);
    expect(resolve("anthropic/claude-future-9:low")).toMatchObject({ ref: "anthropic/claude-future-9", level: "low" });
    expect(resolve("totally-unknown")).toBeUndefined();
  });
});

describe("startup model", () => {
  it("takes --provider alone as that provider's default model", () => {
    expect(resolveStartupModel(registry, { ...cli, provider: "openai" }, {}).model?.id).toBe("gpt-6.2-sol");
  });

  it("falls back to saved defaults, then the first available model", () => {
    expect(resolveStartupModel(registry, cli, { defaultProvider: "openai", defaultModel: "gpt-4.1" }).model?.id).toBe("gpt-4.1");
    // Saved default without credentials: ordinary fallback.
    expect(resolveStartupModel(registry, cli, { defaultProvider: "anthropic", defaultModel: "claude-opus-4-6" }).model?.provider).toBe("openai");
    expect(resolveStartupModel(registry, cli, {}).model?.id).toBe("gpt-6.2-sol");
  });

  it("refuses a CLI pattern that matches nothing, naming the closest models; an unknown --provider lists the known ones", () => {
    const choice = resolveStartupModel(registry, { ...cli, model: "gpt-5.6-mimi" }, {});
    expect(choice.model).toBeUndefined();
    expect(choice.error).toMatch(/^No model matches --model "gpt-5.6-mimi"\. Closest: \S+\/gpt-5\.4-mini, /);
    expect(resolveStartupModel(registry, { ...cli, provider: "nope", model: "x" }, {}).error).toMatch(
      /^Unknown provider "nope" \(--provider\)\. Known providers: anthropic, openai, google, openrouter, .*, lmstudio, local, mirror\./,
    );
    // With a known --provider an unknown id is still a custom id (with the warning).
    expect(resolveStartupModel(registry, { ...cli, provider: "openai", model: "gpt-next" }, {})).toMatchObject({
      model: { id: "gpt-next" },
      warning: expect.stringMatching(/not in the openai catalog/),
    });
  });

  it("starts a scope with the saved default when it is in scope, else its first model with a key, with its level", () => {
    const scope = [
      { model: registry.find("anthropic", "claude-haiku-4-5")! },
      { model: registry.find("openai", "gpt-4.1")!, thinkingLevel: "low" as const },
      { model: registry.find("openai", "gpt-5.5")! },
    ];
    expect(resolveStartupModel(registry, cli, {}, scope)).toMatchObject({ model: { id: "gpt-4.1" }, thinkingLevel: "low" });
    expect(resolveStartupModel(registry, cli, { defaultProvider: "openai", defaultModel: "gpt-5.5" }, scope).model?.id).toBe("gpt-5.5");
  });
});
