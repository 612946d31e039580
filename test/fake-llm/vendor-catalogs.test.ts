/**
 * The three vendors' curated catalogs: the table test (no retired default, sane rows, levels that
 * reach the wire), and the newest models with the facts pi 1.6's catalog gives for them
 * (claude-fable-5, the GPT-6 family, Gemini 4; GPT-5.4/5.5 at pi's 272K window with the long-context
 * tier kept), including pi's `max` level where the API has it.
 */
import { describe, expect, it } from "vitest";
import { emptyUsage, thinkingLevelsFor, type Model } from "../../lib/llm/index.js";
import { expandModels, providerRegistration, readDataFiles } from "../../lib/model-catalog/index.js";
import { computeCost } from "../../lib/provider-kit/index.js";
import { describeModelTable } from "./catalog-suite.js";
import { thinkingWire } from "./thinking-wire.js";

const files = await readDataFiles();
const vendor = (name: string) => {
  const file = files.find((f) => f.provider === name)!;
  return { registration: { ...providerRegistration(file), models: expandModels(file, file.models) }, checked: file.source.checked };
};
const anthropic = vendor("anthropic");
const openai = vendor("openai");
const google = vendor("google");
for (const { registration, checked } of [anthropic, openai, google]) describeModelTable(registration, checked, thinkingWire);

const find = (table: typeof anthropic, id: string): Model => {
  const model = table.registration.models.find((m) => m.id === id);
  if (!model) throw new Error(`${table.registration.name} has no ${id}`);
  return model;
};

describe("newest models (pi 1.6's facts)", () => {
  it("Anthropic: Opus 5.5 first; Fable 5, 5.1 and 5.2 with 1M windows, 128K output, their prices and xhigh/max (no off)", () => {
    expect(anthropic.registration.models[0]!.id).toBe("claude-opus-5-5");
    expect(find(anthropic, "claude-fable-5")).toMatchObject({ contextWindow: 1_000_000, maxTokens: 128_000, cost: { input: 10, output: 50, cacheRead: 1, cacheWrite: 12.5 } });
    expect(find(anthropic, "claude-fable-5-2").cost).toEqual({ input: 8, output: 40, cacheRead: 0.2, cacheWrite: 10 });
    for (const id of ["claude-fable-5", "claude-fable-5-1", "claude-fable-5-2", "claude-opus-5-5"]) {
      expect(thinkingLevelsFor(find(anthropic, id)), id).toEqual(["low", "medium", "high", "xhigh", "max"]);
    }
    expect(thinkingWire(find(anthropic, "claude-fable-5"), "max")).toContain('"effort":"max"');
  });

  it("OpenAI: GPT-6.2 Sol first; the GPT-6 family at 272K with 128K output; max sent as max", () => {
    expect(openai.registration.models[0]!.id).toBe("gpt-6.2-sol");
    for (const id of ["gpt-6-sol", "gpt-6-astra", "gpt-6-luna", "gpt-6.1-sol", "gpt-6.1-terra", "gpt-6.2-sol", "gpt-6.2-astra"]) {
      const model = find(openai, id);
      expect(model, id).toMatchObject({ contextWindow: 272_000, maxTokens: 128_000 });
      expect(thinkingLevelsFor(model), id).toContain("max");
      expect(thinkingWire(model, "max"), id).toContain('"effort":"max"');
    }
    expect(find(openai, "gpt-6.2-sol").cost).toEqual({ input: 2, output: 10, cacheRead: 0.1, cacheWrite: 2.5 });
    // Astra and 6.2 Sol refuse effort none: no off.
    expect(thinkingLevelsFor(find(openai, "gpt-6.2-sol"))).not.toContain("off");
    expect(thinkingLevelsFor(find(openai, "gpt-6-sol"))).toContain("off");
  });

  it("OpenAI: GPT-5.5 and 5.4 keep calls in the short-context tier (272K, pi's window); the long-context tier prices a raised window", () => {
    for (const id of ["gpt-5.5", "gpt-5.4"]) expect(find(openai, id).contextWindow, id).toBe(272_000);
    // The 1.05M window, raised in models.json: a prompt past 272K bills the whole call at 2x input, 1.5x output.
    const raised = { ...find(openai, "gpt-5.4"), contextWindow: 1_050_000 };
    const usage = (input: number) => ({ ...emptyUsage(), input, output: 1_000_000 });
    expect(computeCost(raised, usage(272_000))).toMatchObject({ input: 0.68, output: 15 });
    expect(computeCost(raised, usage(272_001))).toMatchObject({ output: 22.5 });
    expect(computeCost(raised, usage(272_001)).input).toBeCloseTo(1.36, 5);
    expect(find(openai, "gpt-5.5-pro").contextWindow).toBe(1_050_000);
  });

  it("Google: Gemini 4 Argon first; the Gemini 4 family with thinking levels (no off, no xhigh: the API has four levels)", () => {
    expect(google.registration.models[0]!.id).toBe("gemini-4-argon");
    for (const id of ["gemini-4-argon", "gemini-4-carbon", "gemini-4-hydrogen", "gemini-4-neon"]) {
      const model = find(google, id);
      expect(model.contextWindow, id).toBe(1_048_576);
      expect(thinkingLevelsFor(model), id).toEqual(["low", "medium", "high"]);
      expect(thinkingWire(model, "high"), id).toBe('{"includeThoughts":true,"thinkingLevel":"HIGH"}');
    }
    expect(find(google, "gemini-4-argon")).toMatchObject({ maxTokens: 32_768, cost: { input: 2, output: 10, cacheRead: 0.1 } });
  });

  it("lists pi's older models (as pi does) after every current one, so a default or a fuzzy pattern never lands on them", () => {
    const cases: [typeof anthropic, string, string[]][] = [
      [anthropic, "claude-haiku-4-5", ["claude-sonnet-4-5", "claude-sonnet-4-5-20250929"]],
      [openai, "gpt-4o-mini", ["gpt-5", "gpt-4", "chat-latest"]],
      [google, "gemini-2.5-flash-lite", ["gemini-2.5-pro", "gemini-2.5-flash", "gemini-3-flash-preview"]],
    ];
    for (const [table, lastCurrent, older] of cases) {
      const ids = table.registration.models.map((m) => m.id);
      for (const id of older) expect(ids.indexOf(id), id).toBeGreaterThan(ids.indexOf(lastCurrent));
    }
  });
});
