/**
 * Every entry of the shipped catalog has what the agent needs: a valid file (schema), a provider
 * in catalog order with an API some adapter streams, a credential it can be reached with, and per
 * model an id, a name, limits that fit, prices, tiers above them, only `compat` keys the adapter
 * reads, and thinking levels that each reach the wire as their own setting.
 */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { THINKING_LEVELS } from "../llm/index.js";
import { COMPAT_KEYS, unknownCompatKeys } from "../provider-kit/compat.js";
import { thinkingWire } from "../../test/fake-llm/thinking-wire.js";
import { CATALOG_ORDER, compileCatalog, expandModels, fromCompiled, parseCatalogFile, readDataFiles, type CatalogFile } from "./index.js";

const files = await readDataFiles();
const models = files.flatMap((file) => expandModels(file, file.models).map((model) => [`${model.provider}/${model.id}`, model] as const));
const PLACEHOLDERS = new Set(["{resource}", "{location}", "{region}"]);

describe("the shipped catalog files", () => {
  it("are listed in catalog order, one file per provider, each valid with a check date and a source", async () => {
    expect(files.map((file) => file.provider)).toEqual(CATALOG_ORDER);
    for (const file of files) {
      const text = await readFile(new URL(`./data/${file.provider}.json`, import.meta.url), "utf8");
      expect(parseCatalogFile(text, file.provider).error).toBeUndefined();
      expect(file.source.checked).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(file.source.from.length).toBeGreaterThan(10);
    }
  });

  it.each(files.map((file) => [file.provider, file] as const))("%s: an adapter's API, a base URL, a way to authenticate", (_name, file: CatalogFile) => {
    expect(Object.keys(COMPAT_KEYS)).toContain(file.api);
    const url = new URL(file.baseUrl.replace(/\{[a-z]+\}/g, "x"));
    expect(["http:", "https:"]).toContain(url.protocol);
    for (const placeholder of file.baseUrl.match(/\{[a-z]+\}/g) ?? []) expect(PLACEHOLDERS.has(placeholder), placeholder).toBe(true);
    // A hosted provider reads a key (or ambient credentials, or an OAuth login); a local server needs neither.
    if (file.local) {
      expect(new URL(file.baseUrl).hostname).toBe("127.0.0.1");
      expect(file.local.baseUrlEnv).toMatch(/^[A-Z][A-Z0-9_]*_BASE_URL$/);
      expect(file.models).toEqual([]);
    } else {
      expect(file.envKey ?? file.ambientAuth ?? file.oauth).toBeDefined();
      expect(file.models.length).toBeGreaterThan(0);
    }
    if (file.envKey) expect(file.envKey).toMatch(/^[A-Z][A-Z0-9_]*$/);
    expect(unknownCompatKeys(file.api, file.compat)).toEqual([]);
  });
});

describe.each(models)("%s", (_ref, model) => {
  it("has the fields the agent needs, limits that fit and sane prices", () => {
    expect(model.id.trim()).toBe(model.id);
    expect(model.name.trim()).not.toBe("");
    expect(Object.keys(COMPAT_KEYS)).toContain(model.api);
    expect(Number.isInteger(model.contextWindow) && model.contextWindow > 0).toBe(true);
    expect(Number.isInteger(model.maxTokens) && model.maxTokens > 0).toBe(true);
    expect(model.maxTokens).toBeLessThanOrEqual(model.contextWindow);
    expect(model.input[0]).toBe("text");
    for (const price of Object.values(model.cost)) expect(Number.isFinite(price) && price >= 0).toBe(true);
    // OpenRouter's prices are what its upstreams report (one lists cache reads above input); the rest hold.
    if (model.provider !== "openrouter") expect(model.cost.cacheRead).toBeLessThanOrEqual(model.cost.input);
    let previous = 0;
    for (const tier of model.costTiers ?? []) {
      // A tier may start at the window (pi's 272K for GPT-5.4/5.5): it prices a window raised in models.json.
      expect(tier.aboveInputTokens).toBeGreaterThan(previous);
      expect(tier.cost.input).toBeGreaterThanOrEqual(model.cost.input);
      previous = tier.aboveInputTokens;
    }
    expect(unknownCompatKeys(model.api, model.compat)).toEqual([]);
  });

  it("offers thinking levels in order, each sent as its own setting", () => {
    if (!model.reasoning) {
      expect(model.thinkingLevels).toBeUndefined();
      return;
    }
    const levels = model.thinkingLevels ?? [];
    expect(levels.length).toBeGreaterThan(0);
    const order = levels.map((level) => THINKING_LEVELS.indexOf(level));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    const wire = levels.map((level) => thinkingWire(model, level));
    expect(new Set(wire).size).toBe(levels.length);
  });
});

describe("the compiled catalog", () => {
  it("reads back the same providers and models, parsing a provider's line only when asked", () => {
    const compiled = compileCatalog(files);
    expect(/[^\x00-\x7f]/.test(compiled)).toBe(false);
    const source = fromCompiled(compiled);
    expect(source.providers.map((provider) => provider.provider)).toEqual(files.map((file) => file.provider));
    for (const file of files) {
      const { models: entries, ...header } = file;
      expect(source.providers.find((provider) => provider.provider === file.provider)).toEqual(header);
      expect(source.entries(file.provider)).toEqual(entries);
      expect(source.ids(file.provider)).toEqual(entries.map((entry) => entry.id));
    }
    expect(source.entries("no-such-provider")).toEqual([]);
  });

  it("reads the same from the file's bytes as from its text", () => {
    const compiled = compileCatalog(files);
    const fromBytes = fromCompiled(Buffer.from(compiled, "latin1"));
    const fromText = fromCompiled(compiled);
    expect(fromBytes.providers).toEqual(fromText.providers);
    for (const file of files) {
      expect(fromBytes.entries(file.provider)).toEqual(fromText.entries(file.provider));
      expect(fromBytes.ids(file.provider)).toEqual(fromText.ids(file.provider));
    }
  });
});
