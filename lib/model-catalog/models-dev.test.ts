/** Refreshing a provider's catalog from models.dev's shape: what changes, what is kept, what is skipped. */
import { describe, expect, it } from "vitest";
import { modelsDevEntries, refreshCatalog } from "./models-dev.js";
import type { CatalogFile } from "./schema.js";

const shipped: CatalogFile = {
  provider: "groq",
  name: "Groq",
  api: "openai-completions",
  baseUrl: "https://api.groq.com/openai/v1",
  envKey: "GROQ_API_KEY",
  modelsDev: "groq",
  source: { from: "pi", checked: "2026-11-20" },
  models: [
    {
      id: "kept",
      name: "Kept",
      reasoning: true,
      input: ["text"],
      cost: { input: 1, output: 2, cacheRead: 0.1, cacheWrite: 1.25 },
      contextWindow: 100_000,
      maxTokens: 8_000,
      thinkingLevels: ["low", "high"],
      compat: { supportsStrictMode: true },
    },
    { id: "gone", name: "Gone", reasoning: false, input: ["text"], cost: { input: 1, output: 1 }, contextWindow: 1_000, maxTokens: 100 },
  ],
};

const catalog = {
  models: {
    kept: {
      id: "kept",
      name: "Kept v2",
      reasoning: true,
      tool_call: true,
      modalities: { input: ["text"], output: ["text"] },
      cost: { input: 0.5, output: 1.5, cache_read: 0.05 },
      limit: { context: 999_999, output: 99_999 },
    },
    fresh: {
      name: "Fresh",
      reasoning: false,
      tool_call: true,
      modalities: { input: ["text", "image"], output: ["text"] },
      cost: { input: 2, output: 8, context_over_200k: { input: 4, output: 16 } },
      limit: { context: 400_000, output: 32_000 },
    },
    "no-tools": { name: "No tools", tool_call: false, cost: { input: 1, output: 1 }, limit: { context: 1000, output: 10 } },
    "image-out": { name: "Images", modalities: { input: ["text"], output: ["image"] }, cost: { input: 1, output: 1 }, limit: { context: 1000, output: 10 } },
    "no-limit": { name: "No window", cost: { input: 1, output: 1 }, limit: {} },
    "no-price": { name: "No price", limit: { context: 1000, output: 10 } },
  },
};

describe("models.dev refresh", () => {
  it("reads the models the agent can use, with images, tiers and limits", () => {
    const entries = modelsDevEntries(catalog);
    expect(entries.map((e) => e.id)).toEqual(["kept", "fresh"]);
    expect(entries[1]).toEqual({
      id: "fresh",
      name: "Fresh",
      reasoning: false,
      input: ["text", "image"],
      cost: { input: 2, output: 8 },
      costTiers: [{ aboveInputTokens: 200_000, cost: { input: 4, output: 16 } }],
      contextWindow: 400_000,
      maxTokens: 32_000,
    });
    expect(modelsDevEntries(catalog, /^fr/).map((e) => e.id)).toEqual(["fresh"]);
    expect(modelsDevEntries(undefined)).toEqual([]);
    expect(modelsDevEntries({ models: "junk" })).toEqual([]);
  });

  it("reprices known models but keeps their curated limits, levels and compat; adds new ones; keeps ones the catalog dropped", () => {
    const { file, added, updated } = refreshCatalog(shipped, modelsDevEntries(catalog), "2026-12-01", "http://127.0.0.1/api.json");
    expect(added).toEqual(["fresh"]);
    expect(updated).toEqual(["kept"]);
    expect(file.models.map((m) => m.id)).toEqual(["kept", "gone", "fresh"]);
    // The record gives no cache-write price: the curated one is kept (issue 36, D13).
    expect(file.models[0]).toEqual({ ...shipped.models[0], name: "Kept v2", cost: { input: 0.5, output: 1.5, cacheRead: 0.05, cacheWrite: 1.25 } });
    expect(file.source).toEqual({ from: "models.dev (http://127.0.0.1/api.json), refreshing pi checked 2026-11-20", checked: "2026-12-01" });
    expect(file).toMatchObject({ provider: "groq", api: "openai-completions", envKey: "GROQ_API_KEY" });
  });
});
