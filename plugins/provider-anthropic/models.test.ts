/** The Anthropic model table: sane rows, and thinking levels that match the request builder. */
import { describe, expect, it } from "vitest";
import { thinkingLevelsFor, type Model, type ThinkingLevel } from "../../kernel/index.js";
import { describeModelTable } from "../../test/fake-llm/catalog-suite.js";
import { streamRequest } from "../../test/fake-llm/harness.js";
import { anthropicProvider } from "./models.js";
import { buildAnthropicRequest } from "./request.js";

function wireValue(model: Model, level: ThinkingLevel): unknown {
  const { params } = buildAnthropicRequest(streamRequest(model, { thinkingLevel: level }));
  return params.thinking ? JSON.stringify([params.thinking, params.output_config]) : undefined;
}

const provider = anthropicProvider();
describeModelTable(provider, wireValue);

describe("anthropic levels", () => {
  it.each(provider.models.filter((m) => m.reasoning).map((m) => [m.id, m] as const))("%s: no xhigh; max only on adaptive Opus", (_id, model) => {
    const levels = thinkingLevelsFor(model);
    expect(levels).not.toContain("xhigh");
    expect(levels.includes("max")).toBe(model.compat?.adaptiveThinking === true && model.id.includes("opus"));
  });
});
