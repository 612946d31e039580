/** The catalog checker itself: a retired default or a model past its date fails the table test. */
import { describe, expect, it } from "vitest";
import { modelTable } from "../../lib/provider-kit/index.js";
import { retirementProblems } from "./catalog-suite.js";

const table = (rows: Parameters<typeof modelTable>[3]) => ({ name: "p", api: "a", baseUrl: "u", models: modelTable("p", "a", "u", rows) });
const row = (id: string, retiresOn?: string) => ({
  id,
  name: id,
  cost: [1, 2, 0.1, 0] as [number, number, number, number],
  contextWindow: 1000,
  maxTokens: 100,
  ...(retiresOn ? { retiresOn } : {}),
});

describe("retirementProblems", () => {
  it("flags a default marked retiring, a listed model past its date and a malformed date", () => {
    expect(retirementProblems(table([row("a"), row("b", "2027-01-01")]), "2026-11-30")).toEqual([]);
    expect(retirementProblems(table([row("a", "2027-01-01"), row("b")]), "2026-11-30")).toEqual(["default model a is marked retiring on 2027-01-01"]);
    expect(retirementProblems(table([row("a"), row("b", "2026-10-23")]), "2026-11-30")).toEqual(["b retired on 2026-10-23"]);
    expect(retirementProblems(table([row("a"), row("b", "Dec 2026")]), "2026-11-30")).toEqual(["b: retiresOn must be YYYY-MM-DD"]);
  });
});
