import { describe, expect, it } from "vitest";
import { normalizeRanges, parsePlan } from "./plan.js";

describe("parsePlan", () => {
  it("should read one start,end record per line", () => {
    expect(parsePlan("2,5\n9,7\n", false)).toEqual({
      ok: true,
      ranges: [
        { start: 2, end: 5 },
        { start: 9, end: 7 },
      ],
    });
    expect(parsePlan("  3 , 4 \n\n12,12", false)).toEqual({
      ok: true,
      ranges: [
        { start: 3, end: 4 },
        { start: 12, end: 12 },
      ],
    });
  });

  it("should accept an empty answer as a plan that deletes nothing", () => {
    expect(parsePlan("", false)).toEqual({ ok: true, ranges: [] });
    expect(parsePlan("\n", false)).toEqual({ ok: true, ranges: [] });
  });

  it.each([
    ["2,5\nok", 'line 2 is not a "start,end" record: "ok"'],
    ["Here is the plan:\n2,5", 'line 1 is not a "start,end" record: "Here is the plan:"'],
    ["```\n2,5\n```", 'line 1 is not a "start,end" record: "```"'],
    ["2-5", 'line 1 is not a "start,end" record: "2-5"'],
    ["-2,2", 'line 1 is not a "start,end" record: "-2,2"'],
    ["2,5,7", 'line 1 is not a "start,end" record: "2,5,7"'],
    ["2.5,7", 'line 1 is not a "start,end" record: "2.5,7"'],
  ])("should reject the whole plan for %j", (answer, reason) => {
    expect(parsePlan(answer, false)).toEqual({ ok: false, reason });
  });

  it("should drop the unfinished last record of an answer cut off by the output limit", () => {
    expect(parsePlan("120,180\n6,40\n300,", true)).toEqual({
      ok: true,
      ranges: [
        { start: 120, end: 180 },
        { start: 6, end: 40 },
      ],
    });
    expect(parsePlan("120,180\n6,40\n", true)).toEqual({
      ok: true,
      ranges: [
        { start: 120, end: 180 },
        { start: 6, end: 40 },
      ],
    });
    expect(parsePlan("12,1", true)).toEqual({ ok: false, reason: "the answer hit the output limit before its first complete record" });
    expect(parsePlan("oops\n3,4\n5,", true)).toMatchObject({ ok: false });
  });

  it("should keep a long bad line short in the reason", () => {
    const result = parsePlan("x".repeat(500), false);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason.length).toBeLessThan(120);
  });
});

describe("normalizeRanges", () => {
  it("should swap reversed pairs, clip to 1..N and merge overlapping or adjacent ranges", () => {
    expect(
      normalizeRanges(
        [
          { start: 9, end: 4 },
          { start: 0, end: 2 },
          { start: 3, end: 3 },
        ],
        6,
      ),
    ).toEqual([{ start: 1, end: 6 }]);
    expect(
      normalizeRanges(
        [
          { start: 7, end: 9 },
          { start: 2, end: 5 },
        ],
        20,
      ),
    ).toEqual([
      { start: 2, end: 5 },
      { start: 7, end: 9 },
    ]);
    expect(
      normalizeRanges(
        [
          { start: 2, end: 5 },
          { start: 6, end: 8 },
          { start: 4, end: 4 },
        ],
        20,
      ),
    ).toEqual([{ start: 2, end: 8 }]);
  });

  it("should drop a range wholly outside the region", () => {
    expect(
      normalizeRanges(
        [
          { start: 50, end: 60 },
          { start: 0, end: 0 },
          { start: 2, end: 2 },
        ],
        6,
      ),
    ).toEqual([{ start: 2, end: 2 }]);
    expect(normalizeRanges([{ start: 1e21, end: 3 }], 6)).toEqual([{ start: 3, end: 6 }]);
  });
});
