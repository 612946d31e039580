import { describe, expect, it } from "vitest";
import type { Model } from "../llm/index.js";
import { closestHint, closestModels, providerMeant } from "./models.js";

const model = (provider: string, id: string) => ({ provider, id, name: id }) as Model;
const CATALOG = [
  model("anthropic", "claude-sonnet-5"),
  model("anthropic", "claude-sonnet-5-5"),
  model("openai", "gpt-5.5"),
  model("fireworks", "accounts/fireworks/models/kimi-k3"),
  model("fireworks", "accounts/fireworks/models/glm-5p3"),
];

describe("closestModels", () => {
  it("suggests names a slip away", () => {
    expect(closestModels(CATALOG, "sonet")).toEqual(["anthropic/claude-sonnet-5", "anthropic/claude-sonnet-5-5"]);
    expect(closestModels(CATALOG, "gpt-5.9")).toEqual(["openai/gpt-5.5"]);
  });

  it("suggests nothing when only a long id's fragment is near (a third of the name at most)", () => {
    // "nosuch-model" is six edits from "s/models/k" inside the Fireworks ids.
    expect(closestModels(CATALOG, "nosuch-model")).toEqual([]);
    expect(closestHint([])).toBe(" No model name is close to it. Run 'atomic --list-models' to see every model, or 'atomic --list-models <search>' to search them.");
    expect(closestHint(["openai/gpt-5.5"])).toBe(" Closest: openai/gpt-5.5. Run 'atomic --list-models' to see every model.");
  });
});

describe("providerMeant", () => {
  const known = ["anthropic", "openai", "google", "groq", "xai", "openai-codex"];
  it("maps a model family to the provider that serves it, before spelling", () => {
    expect(providerMeant(known, "grok")).toBe(' Did you mean "xai"?');
    expect(providerMeant(known, "Claude")).toBe(' Did you mean "anthropic"?');
    expect(providerMeant(known, "gemini")).toBe(' Did you mean "google"?');
    expect(providerMeant(known, "codex")).toBe(' Did you mean "openai-codex"?');
  });

  it("falls back to a slip of a name, and to nothing; a family whose provider is not known is no hint", () => {
    expect(providerMeant(known, "opneai")).toBe(' Did you mean "openai"?');
    expect(providerMeant(known, "nosuch")).toBe("");
    expect(providerMeant(["openai"], "claude")).toBe("");
  });
});
