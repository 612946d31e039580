import { describe, expect, it } from "vitest";
import { normalizeRanges, parsePlan } from "./plan.js";
import { reconstruct } from "./reconstruct.js";

const lines = (text: string) => text.split("\n");
const plan = (answer: string, count: number) => {
  const parsed = parsePlan(answer, false);
  if (!parsed.ok) throw new Error(parsed.reason);
  return normalizeRanges(parsed.ranges, count);
};

describe("reconstruct", () => {
  it("should keep surviving lines byte for byte and mark each deleted run", () => {
    const region = Array.from({ length: 12 }, (_, i) => `line ${i + 1}  \t`);
    const result = reconstruct(region, plan("2,5\n9,7\n", 12));
    expect(result.text.split("\n")).toEqual(["line 1  \t", "(filtered 4 lines)", "line 6  \t", "(filtered 3 lines)", "line 10  \t", "line 11  \t", "line 12  \t"]);
    expect(result).toMatchObject({ linesDeleted: 7, rangeCount: 2 });
  });

  it("should leave the text unchanged for an empty plan", () => {
    const region = lines("[User]: task\nbody\n(filtered 12 lines)\n[Assistant]: done");
    expect(reconstruct(region, [])).toEqual({ text: region.join("\n"), linesDeleted: 0, rangeCount: 0 });
  });

  it("should fold an earlier marker into an adjacent run, counting the lines it stood for", () => {
    expect(reconstruct(lines("a\nb\n(filtered 12 lines)\nd\ne\nf\ng"), [{ start: 2, end: 6 }]).text).toBe("a\n(filtered 16 lines)\ng");
    expect(reconstruct(lines("a\n(filtered 3 lines)\n(filtered 4 lines)\nd\ne"), [{ start: 4, end: 4 }]).text).toBe("a\n(filtered 8 lines)\ne");
    expect(reconstruct(lines("a\nb\n(filtered 5 lines)\nc"), [{ start: 2, end: 2 }]).text).toBe("a\n(filtered 6 lines)\nc");
    // A marker not touching a deleted line stays as it is.
    expect(reconstruct(lines("(filtered 5 lines)\na\nb\nc"), [{ start: 3, end: 3 }]).text).toBe("(filtered 5 lines)\na\n(filtered 1 lines)\nc");
  });

  it("should keep the represented line count true across repeated compactions", () => {
    let region = lines("1\n2\n3\n4\n5\n6\n7\n8");
    const represented = (text: string) => text.split("\n").reduce((sum, line) => sum + (Number(/^\(filtered (\d+) lines\)$/.exec(line)?.[1]) || 1), 0);
    for (const range of [
      { start: 2, end: 3 },
      { start: 3, end: 4 },
      { start: 1, end: 1 },
    ]) {
      const text = reconstruct(region, [range]).text;
      expect(represented(text)).toBe(8);
      region = lines(text);
    }
    expect(reconstruct(lines("a\nb\nc"), [{ start: 2, end: 2 }]).text).toBe("a\n(filtered 1 lines)\nc");
  });

  it("should count lines and ranges for the stats", () => {
    const region = Array.from({ length: 40 }, (_, i) => `l${i}`);
    expect(
      reconstruct(region, [
        { start: 1, end: 10 },
        { start: 21, end: 25 },
      ]),
    ).toMatchObject({ linesDeleted: 15, rangeCount: 2 });
  });
});
