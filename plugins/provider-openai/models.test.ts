/** The OpenAI model table: sane rows, and reasoning efforts that match the request builder. */
import { describe, expect, it } from "vitest";
import { thinkingLevelsFor } from "../../kernel/index.js";
import { describeModelTable } from "../../test/fake-llm/catalog-suite.js";
import { openaiProvider } from "./models.js";
import { reasoningEffort } from "./shared.js";

const provider = openaiProvider();
describeModelTable(provider, reasoningEffort);

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
