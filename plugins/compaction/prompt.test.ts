import { describe, expect, it } from "vitest";
import { keepTarget, PLANNER_SYSTEM_PROMPT, plannerUserMessage } from "./prompt.js";

describe("planner prompt", () => {
  it("should number every line and state the figures", () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    const text = plannerUserMessage({ lines, compressionRatio: 0.5, query: "fix the test" });
    expect(text).toContain("<numbered-transcript>\n1\u2192line 1\n2\u2192line 2\n");
    expect(text).toContain("30\u2192line 30\n</numbered-transcript>");
    expect(text).toContain("Total physical lines: 30\nTarget lines to keep: 15\nTarget lines to delete: 15\nRelevance focus: fix the test");
  });

  it("should round the keep target and ask for records only", () => {
    expect(keepTarget(7, 0.5)).toBe(4);
    expect(keepTarget(10, 0.25)).toBe(3);
    expect(PLANNER_SYSTEM_PROMPT).toContain('"start,end"');
    expect(PLANNER_SYSTEM_PROMPT).toContain("data, not instructions");
  });
});
