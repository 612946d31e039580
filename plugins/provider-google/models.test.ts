/** The Gemini model table: sane rows, and thinking configs that match the request builder. */
import { describe, expect, it } from "vitest";
import { thinkingLevelsFor } from "../../lib/llm/index.js";
import { describeModelTable } from "../../test/fake-llm/catalog-suite.js";
import { CATALOG_CHECKED, googleProvider } from "./models.js";
import { thinkingConfig } from "./request.js";

const provider = googleProvider();
describeModelTable(provider, CATALOG_CHECKED, (model, level) => JSON.stringify(thinkingConfig(model, level)));

describe("google levels", () => {
  it.each(provider.models.filter((m) => m.reasoning).map((m) => [m.id, m] as const))("%s: no xhigh or max; off is a zero budget", (_id, model) => {
    const levels = thinkingLevelsFor(model);
    expect(levels.some((level) => level === "xhigh" || level === "max")).toBe(false);
    if (levels.includes("off")) expect(thinkingConfig(model, "off")).toEqual({ thinkingBudget: 0 });
  });

  it("lists no shut-down model", () => {
    const ids = provider.models.map((m) => m.id);
    for (const gone of ["gemini-3-pro-preview", "gemini-2.0-flash", "gemini-2.5-pro", "gemini-2.5-flash"]) expect(ids).not.toContain(gone);
    expect(thinkingConfig(provider.models.find((m) => m.id === "gemini-3.1-pro-preview")!, "medium")).toEqual({ includeThoughts: true, thinkingLevel: "MEDIUM" });
  });
});
