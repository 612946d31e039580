/** The Anthropic model table: sane rows, and thinking levels that match the request builder. */
import { describe, expect, it } from "vitest";
import { thinkingLevelsFor, type Model, type ThinkingLevel } from "../../lib/llm/index.js";
import { describeModelTable } from "../../test/fake-llm/catalog-suite.js";
import { streamRequest } from "../../test/fake-llm/harness.js";
import { CATALOG_CHECKED, anthropicProvider } from "./models.js";
import { buildAnthropicRequest } from "./request.js";
import { claudeGeneration, isAdaptive } from "./thinking.js";

function wireValue(model: Model, level: ThinkingLevel): unknown {
  const { params } = buildAnthropicRequest(streamRequest(model, { thinkingLevel: level }));
  return params.thinking ? JSON.stringify([params.thinking, params.output_config]) : undefined;
}

const provider = anthropicProvider();
describeModelTable(provider, CATALOG_CHECKED, wireValue);

describe("anthropic levels", () => {
  it.each(provider.models.filter((m) => m.reasoning).map((m) => [m.id, m] as const))("%s: xhigh from Opus 4.7 on (not Haiku), max only where adaptive", (_id, model) => {
    const levels = thinkingLevelsFor(model);
    const generation = claudeGeneration(model.id)!;
    const newer = generation.family !== "haiku" && (generation.major > 4 || (generation.major === 4 && generation.minor >= 7));
    expect(levels.includes("xhigh")).toBe(newer);
    if (levels.includes("max")) expect(isAdaptive(model)).toBe(true);
    // Opus and Sonnet 4.6 and later have 1M-token windows.
    if (isAdaptive(model)) expect(model.contextWindow).toBe(1_000_000);
  });

  it("starts with the current Opus", () => {
    expect(provider.models[0]!.id).toBe("claude-opus-5-5");
  });
});
