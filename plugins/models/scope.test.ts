import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Model } from "../../lib/llm/index.js";
import { builtinProviders, removeDir, tempDir } from "../../test/fake-llm/harness.js";
import { closestModels } from "./closest.js";
import { cycleCandidates, nextCandidate } from "./cycle.js";
import { ModelRegistry } from "./registry.js";
import { globToRegExp, resolveScope, scopePatterns } from "./scope.js";

let agentDir: string;
let registry: ModelRegistry;
const ref = (m: Model) => `${m.provider}/${m.id}`;

beforeAll(async () => {
  agentDir = await tempDir();
  await writeFile(
    join(agentDir, "models.json"),
    JSON.stringify({ providers: { local: { baseUrl: "http://localhost:1/v1", api: "openai-completions", apiKey: "k", models: [{ id: "llama3:8b" }] } } }),
  );
  registry = new ModelRegistry({ env: { ANTHROPIC_API_KEY: "a" }, agentDir });
  await registry.loadConfig();
  for (const provider of await builtinProviders()) registry.registerProvider(provider);
  registry.registerProvider({ name: "replay", api: "replay", requiresAuth: false, models: [replayModel("demo"), replayModel("other")] });
  registry.registerCustomProviders();
});
afterAll(() => removeDir(agentDir));

function replayModel(id: string): Model {
  return {
    id,
    name: id,
    api: "replay",
    provider: "replay",
    baseUrl: "",
    reasoning: false,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 1000,
    maxTokens: 100,
  };
}

describe("model scope", () => {
  it("splits --models on commas and drops empty entries", () => {
    expect(scopePatterns(" a , ,b:high,")).toEqual(["a", "b:high"]);
    expect(scopePatterns(["x", " "])).toEqual(["x"]);
    expect(scopePatterns(undefined)).toEqual([]);
  });

  it("globs match provider/id or the bare id, case-insensitively; * stays within one path part", () => {
    expect(globToRegExp("anthropic/*").test("anthropic/claude-x")).toBe(true);
    expect(globToRegExp("*sonnet*").test("claude-SONNET-5-5")).toBe(true);
    expect(globToRegExp("*").test("anthropic/claude")).toBe(false);
    expect(globToRegExp("gpt-5.?").test("gpt-5.5")).toBe(true);
    expect(globToRegExp("gpt-5.?").test("gpt-5x5")).toBe(false);
    expect(globToRegExp("claude-[hs]*").test("claude-haiku")).toBe(true);
    expect(globToRegExp("claude-[!hs]*").test("claude-haiku")).toBe(false);
  });

  it("resolves globs, fuzzy patterns and :<thinking> suffixes, once each, in pattern order", () => {
    const scope = resolveScope(registry, ["anthropic/claude-haiku-*:low", "haiku", "llama3:8b", "sonnet-5-5:high", "no-such-thing", "zzz/*"]);
    expect(scope.entries.map((e) => [ref(e.model), e.thinkingLevel])).toEqual([
      ["anthropic/claude-haiku-5-5", "low"],
      ["anthropic/claude-haiku-4-5", "low"],
      ["anthropic/claude-haiku-4-5-20251001", "low"],
      ["local/llama3:8b", undefined],
      ["anthropic/claude-sonnet-5-5", "high"],
    ]);
    expect(scope.unmatched).toEqual(["no-such-thing", "zzz/*"]);
  });
});

describe("cycle candidates", () => {
  it("skip the offline replay models unless the current model is one", () => {
    const haiku = registry.find("anthropic", "claude-haiku-4-5")!;
    const fromVendor = cycleCandidates(registry, haiku, []);
    expect(fromVendor.scoped).toBe(false);
    expect(fromVendor.candidates.some((c) => c.model.provider === "replay")).toBe(false);
    const fromReplay = cycleCandidates(registry, registry.find("replay", "demo")!, []);
    expect(fromReplay.candidates.map((c) => ref(c.model))).toEqual(expect.arrayContaining(["replay/demo", "replay/other", "anthropic/claude-haiku-4-5"]));
  });

  it("with a scope: only its models that have a key, marked scoped", () => {
    const scope = resolveScope(registry, ["claude-haiku-4-5", "openai/gpt-5.5", "replay/demo:off"]).entries;
    const { candidates, scoped } = cycleCandidates(registry, null, scope);
    expect(scoped).toBe(true);
    expect(candidates.map((c) => ref(c.model))).toEqual(["anthropic/claude-haiku-4-5", "replay/demo"]);
  });

  it("steps forward and backward, wrapping; a current model outside the list starts at an end", () => {
    const list = ["a", "b", "c"].map((id) => ({ model: replayModel(id) }));
    expect(nextCandidate(list, replayModel("c"), "forward").model.id).toBe("a");
    expect(nextCandidate(list, replayModel("a"), "backward").model.id).toBe("c");
    expect(nextCandidate(list, replayModel("zz"), "forward").model.id).toBe("a");
    expect(nextCandidate(list, null, "backward").model.id).toBe("c");
  });
});

describe("closest models", () => {
  it("orders the catalog by edits to a part of the id or provider/id, then to the whole", () => {
    // One slip from "sonnet" in a part of the id: the Sonnets, the shorter id first, in catalog order.
    expect(closestModels(registry.all(), "sonet", 3)).toEqual(["anthropic/claude-sonnet-5", "cloudflare-ai-gateway/claude-sonnet-5", "github-copilot/claude-sonnet-5"]);
    expect(closestModels(registry.all(), "claude-haiku-4-6")[0]).toBe("anthropic/claude-haiku-4-5");
    expect(closestModels(registry.all(), "claude-haiku-4-6", 5)).toHaveLength(5);
    expect(closestModels(registry.all(), "")).toEqual([]);
  });
});
