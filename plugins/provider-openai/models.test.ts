/** The OpenAI model table: sane rows, tiers, and reasoning efforts that match the request builder. */
import { describe, expect, it } from "vitest";
import { emptyUsage, thinkingLevelsFor } from "../../lib/llm/index.js";
import { computeCost } from "../../lib/provider-kit/index.js";
import { describeModelTable } from "../../test/fake-llm/catalog-suite.js";
import { CATALOG_CHECKED, openaiProvider } from "./models.js";
import { reasoningEffort } from "./shared.js";

const provider = openaiProvider();
describeModelTable(provider, CATALOG_CHECKED, reasoningEffort);

describe("openai levels", () => {
  it.each(provider.models.filter((m) => m.reasoning).map((m) => [m.id, m] as const))("%s: xhigh from 5.2, off only where none is accepted", (_id, model) => {
    const levels = thinkingLevelsFor(model);
    expect(levels).not.toContain("max");
    expect(levels.includes("xhigh")).toBe(/^gpt-5\.[2-9]/.test(model.id));
    // "off" is offered only where it can be sent ("none"); older reasoning models always think.
    expect(levels.includes("off")).toBe(model.compat?.supportsReasoningNone === true);
    if (levels.includes("off")) expect(reasoningEffort(model, "off")).toBe("none");
  });
});

describe("GPT-5.4 pricing tier", () => {
  it("bills a whole call above 272K prompt tokens at 2x input and 1.5x output", () => {
    const gpt54 = provider.models.find((m) => m.id === "gpt-5.4")!;
    expect(gpt54.contextWindow).toBe(1_050_000);
    const usage = (input: number, cacheRead: number) => ({ ...emptyUsage(), input, cacheRead, output: 1_000_000 });
    expect(computeCost(gpt54, usage(200_000, 72_000))).toMatchObject({ input: 0.5, output: 15, cacheRead: 0.018 });
    expect(computeCost(gpt54, usage(200_000, 72_001))).toMatchObject({ input: 1, output: 22.5, cacheRead: 0.0360005 });
  });
});
