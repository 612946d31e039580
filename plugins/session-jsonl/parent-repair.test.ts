import { describe, expect, it } from "vitest";
import { parseSessionText } from "./reader.js";

const header = JSON.stringify({ type: "session", version: 1, id: "s", timestamp: "t", cwd: "/" });
const entry = (id: string, parentId: string | null) => JSON.stringify({ type: "session_info", id, parentId, timestamp: "t", name: id });
const parents = (...lines: string[]) => parseSessionText([header, ...lines].join("\n") + "\n", "/s.jsonl", () => undefined).entries.map((e) => [e.id, e.parentId]);

describe("parent repair after skipped lines", () => {
  it("leaves a true orphan alone when no line was skipped", () => {
    expect(parents(entry("a", null), entry("b", "missing"))).toEqual([
      ["a", null],
      ["b", "missing"],
    ]);
  });

  it("follows a chain of skipped entries of unusable shape to their readable ancestor", () => {
    const broken = (id: string, parentId: string) => JSON.stringify({ type: "message", id, parentId, timestamp: "t" });
    expect(parents(entry("a", null), broken("x", "a"), broken("y", "x"), entry("b", "y"))).toEqual([
      ["a", null],
      ["b", "a"],
    ]);
  });

  it("a skipped duplicate of a kept entry does not move its children", () => {
    expect(parents(entry("a", null), entry("b", "a"), entry("b", "zzz"), entry("c", "b"))).toEqual([
      ["a", null],
      ["b", "a"],
      ["c", "b"],
    ]);
  });

  it("garbage right after the header: the entry after it becomes the root", () => {
    expect(parents("not json", entry("b", "lost"), entry("c", "b"))).toEqual([
      ["b", null],
      ["c", "b"],
    ]);
  });
});
