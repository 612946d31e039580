/**
 * The built-in catalog's sanity: limits, prices, capabilities, and thinking levels that agree
 * with what each provider adapter actually sends for them.
 */
import { describe, expect, it } from "vitest";
import { THINKING_LEVELS, type Model, type ThinkingLevel } from "../../kernel/index.js";
import { streamRequest } from "../../test/fake-llm/harness.js";
import { thinkingLevelsFor } from "../../kernel/index.js";
import { buildAnthropicRequest } from "../provider-anthropic/request.js";
import { thinkingConfig } from "../provider-google/request.js";
import { reasoningEffort } from "../provider-openai/shared.js";
import { ANTHROPIC_API, GOOGLE_API, OPENAI_RESPONSES_API, builtinProviders } from "./catalog.js";

const providers = builtinProviders();
const models = providers.flatMap((p) => p.models);

/** What the adapter puts on the wire for a level (undefined: nothing, the model's default). */
function wireValue(model: Model, level: ThinkingLevel): unknown {
  if (model.api === ANTHROPIC_API) {
    const { params } = buildAnthropicRequest(streamRequest(model, { thinkingLevel: level }));
    return params.thinking ? JSON.stringify([params.thinking, params.output_config]) : undefined;
  }
  if (model.api === OPENAI_RESPONSES_API) return reasoningEffort(model, level);
  if (model.api === GOOGLE_API) return JSON.stringify(thinkingConfig(model, level));
  throw new Error(`no mapping for ${model.api}`);
}

describe("built-in catalog", () => {
  it("has the three providers, each model under its provider's api and base URL, ids unique per provider", () => {
    expect(providers.map((p) => p.name)).toEqual(["anthropic", "openai", "google"]);
    for (const provider of providers) {
      expect(provider.models.length).toBeGreaterThan(0);
      expect(new Set(provider.models.map((m) => m.id)).size).toBe(provider.models.length);
      for (const model of provider.models) expect(model).toMatchObject({ provider: provider.name, api: provider.api, baseUrl: provider.baseUrl });
    }
  });

  it.each(models.map((m) => [`${m.provider}/${m.id}`, m] as const))("%s: limits, prices and inputs are sane", (_ref, model) => {
    expect(model.name.trim()).not.toBe("");
    expect(Number.isInteger(model.contextWindow) && model.contextWindow > 0).toBe(true);
    expect(Number.isInteger(model.maxTokens) && model.maxTokens > 0).toBe(true);
    expect(model.maxTokens).toBeLessThanOrEqual(model.contextWindow);
    expect(Object.keys(model.cost).sort()).toEqual(["cacheRead", "cacheWrite", "input", "output"]);
    for (const price of Object.values(model.cost)) expect(Number.isFinite(price) && price >= 0).toBe(true);
    expect(model.cost.input).toBeGreaterThan(0);
    expect(model.cost.output).toBeGreaterThan(model.cost.input);
    expect(model.cost.cacheRead).toBeLessThan(model.cost.input);
    expect(model.input[0]).toBe("text");
    expect(model.input.every((kind) => kind === "text" || kind === "image")).toBe(true);
  });

  it.each(models.map((m) => [`${m.provider}/${m.id}`, m] as const))("%s: thinking levels match what the adapter sends", (_ref, model) => {
    const levels = thinkingLevelsFor(model);
    if (!model.reasoning) {
      expect(model.thinkingLevels).toBeUndefined();
      expect(levels).toEqual(["off"]);
      expect(wireValue(model, "high")).toBeUndefined();
      return;
    }
    // In cycle order, no duplicates, at least one level that thinks.
    const order = levels.map((level) => THINKING_LEVELS.indexOf(level));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(new Set(levels).size).toBe(levels.length);
    expect(levels.some((level) => level !== "off")).toBe(true);
    // Every offered level reaches the wire as its own distinct setting.
    const values = levels.map((level) => wireValue(model, level));
    expect(new Set(values.map((v) => JSON.stringify(v))).size).toBe(levels.length);
    for (const [i, level] of levels.entries()) if (level !== "off") expect(values[i], level).toBeDefined();
    // xhigh and max only where the provider has a distinct setting for them.
    if (model.provider === "anthropic") {
      expect(levels).not.toContain("xhigh");
      expect(levels.includes("max")).toBe(model.compat?.adaptiveThinking === true && model.id.includes("opus"));
    }
    if (model.provider === "openai") {
      expect(levels).not.toContain("max");
      expect(levels.includes("xhigh")).toBe(/^gpt-5\.[2-9]/.test(model.id));
      // "off" is offered only where it can be sent ("none"); older reasoning models always think.
      expect(levels.includes("off")).toBe(model.compat?.supportsReasoningNone === true);
      if (levels.includes("off")) expect(wireValue(model, "off")).toBe("none");
    }
    if (model.provider === "google") {
      expect(levels.some((level) => level === "xhigh" || level === "max")).toBe(false);
      if (levels.includes("off")) expect(JSON.parse(wireValue(model, "off") as string)).toEqual({ thinkingBudget: 0 });
    }
  });
});
