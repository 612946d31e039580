/**
 * The table test every provider's model table passes: ids unique, the provider's API and base
 * URL on each model, sane limits and prices, and thinking levels that agree with what the
 * adapter actually sends for them (`wireValue`: undefined = nothing sent, the model's default).
 */
import { describe, expect, it } from "vitest";
import { THINKING_LEVELS, thinkingLevelsFor, type Model, type ThinkingLevel } from "../../lib/llm/index.js";
import type { CatalogModel, ProviderRegistration } from "../../lib/provider-kit/index.js";

/**
 * What is wrong with a table's lifecycle data as of `checkedOn` (the date the table says it was
 * checked): a default (first) model that is retired or retiring, a listed model past its date.
 */
export function retirementProblems(registration: ProviderRegistration, checkedOn: string): string[] {
  const problems: string[] = [];
  const [first, ...rest] = registration.models as CatalogModel[];
  if (first?.retiresOn) problems.push(`default model ${first.id} is marked retiring on ${first.retiresOn}`);
  for (const model of rest) if (model.retiresOn && model.retiresOn <= checkedOn) problems.push(`${model.id} retired on ${model.retiresOn}`);
  for (const model of registration.models as CatalogModel[]) {
    if (model.retiresOn !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(model.retiresOn)) problems.push(`${model.id}: retiresOn must be YYYY-MM-DD`);
  }
  return problems;
}

export function describeModelTable(registration: ProviderRegistration, checkedOn: string, wireValue: (model: Model, level: ThinkingLevel) => unknown): void {
  const models = registration.models;
  describe(`${registration.name} model table (checked ${checkedOn})`, () => {
    it("has a check date, a default that is not retired or retiring, and no model past its retirement", () => {
      expect(checkedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(retirementProblems(registration, checkedOn)).toEqual([]);
    });

    it("prices tiers above the base price, at growing thresholds", () => {
      for (const model of models as CatalogModel[]) {
        let previous = -1;
        for (const tier of model.costTiers ?? []) {
          expect(tier.aboveInputTokens, model.id).toBeGreaterThan(previous);
          // At most the window: a tier at the window (GPT-5.4/5.5's 272K) prices a window raised in models.json.
          expect(tier.aboveInputTokens, model.id).toBeLessThanOrEqual(model.contextWindow);
          expect(tier.cost.input, model.id).toBeGreaterThan(model.cost.input);
          previous = tier.aboveInputTokens;
        }
      }
    });

    it("has models under the provider's api and base URL, ids unique", () => {
      expect(models.length).toBeGreaterThan(0);
      expect(new Set(models.map((m) => m.id)).size).toBe(models.length);
      for (const model of models) expect(model).toMatchObject({ provider: registration.name, api: registration.api, baseUrl: registration.baseUrl });
    });

    it.each(models.map((m) => [m.id, m] as const))("%s: limits, prices and inputs are sane", (_id, model) => {
      expect(model.name.trim()).not.toBe("");
      expect(Number.isInteger(model.contextWindow) && model.contextWindow > 0).toBe(true);
      expect(Number.isInteger(model.maxTokens) && model.maxTokens > 0).toBe(true);
      expect(model.maxTokens).toBeLessThanOrEqual(model.contextWindow);
      expect(Object.keys(model.cost).sort()).toEqual(["cacheRead", "cacheWrite", "input", "output"]);
      for (const price of Object.values(model.cost)) expect(Number.isFinite(price) && price >= 0).toBe(true);
      // A free model (Gemma on Google's API) costs nothing at all; a paid one charges more for output.
      if (model.cost.input === 0) expect(model.cost.output).toBe(0);
      else {
        expect(model.cost.output).toBeGreaterThan(model.cost.input);
        expect(model.cost.cacheRead).toBeLessThan(model.cost.input);
      }
      expect(model.input[0]).toBe("text");
      expect(model.input.every((kind) => kind === "text" || kind === "image")).toBe(true);
    });

    it.each(models.map((m) => [m.id, m] as const))("%s: thinking levels match what the adapter sends", (_id, model) => {
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
    });
  });
}
