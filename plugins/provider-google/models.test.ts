/** The Gemini model table: sane rows, and thinking configs that match the request builder. */
import { describe, expect, it } from "vitest";
import { thinkingLevelsFor } from "../../kernel/index.js";
import { describeModelTable } from "../../test/fake-llm/catalog-suite.js";
import { googleProvider } from "./models.js";
import { thinkingConfig } from "./request.js";

const provider = googleProvider();
describeModelTable(provider, (model, level) => JSON.stringify(thinkingConfig(model, level)));

describe("google levels", () => {
  it.each(provider.models.filter((m) => m.reasoning).map((m) => [m.id, m] as const))("%s: no xhigh or max; off is a zero budget", (_id, model) => {
    const levels = thinkingLevelsFor(model);
    expect(levels.some((level) => level === "xhigh" || level === "max")).toBe(false);
    if (levels.includes("off")) expect(thinkingConfig(model, "off")).toEqual({ thinkingBudget: 0 });
  });
});
