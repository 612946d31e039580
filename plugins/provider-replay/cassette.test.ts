import { describe, expect, it } from "vitest";
import { parseCassette, tapeFor } from "./cassette.js";

const header = JSON.stringify({ type: "cassette", version: 1 });
const done = JSON.stringify({ type: "done", reason: "stop" });
const cassette = (...lines: object[]) => [header, ...lines.map((line) => JSON.stringify(line))].join("\n");

describe("cassette tapes", () => {
  it("a cassette without tape lines is one default tape", () => {
    const parsed = parseCassette("plain", [header, '{"type":"turn"}', done].join("\n"), "plain.jsonl");
    expect(parsed.tapes).toHaveLength(1);
    expect(tapeFor(parsed, "anything")?.turns).toHaveLength(1);
  });

  it("picks the first tape whose `when` matches (case-insensitive), else the one without `when`", () => {
    const parsed = parseCassette(
      "t",
      cassette({ type: "tape", when: "\\bfile\\b" }, { type: "turn" }, { type: "done", reason: "toolUse" }, { type: "tape" }, { type: "turn" }, { type: "done", reason: "stop" }),
      "t.jsonl",
    );
    expect(tapeFor(parsed, "Create a FILE")?.turns[0]).toEqual([{ type: "done", reason: "toolUse" }]);
    expect(tapeFor(parsed, "profile")?.turns[0]).toEqual([{ type: "done", reason: "stop" }]);
  });

  it("no match and no default tape: no tape", () => {
    const parsed = parseCassette("t", cassette({ type: "tape", when: "x" }, { type: "turn" }, { type: "done", reason: "stop" }), "t.jsonl");
    expect(tapeFor(parsed, "y")).toBeUndefined();
  });

  it("a bad `when` or an event before a tape's first turn names the line", () => {
    expect(() => parseCassette("t", cassette({ type: "tape", when: "(" }), "t.jsonl")).toThrow(/^Invalid tape "when" on line 2 of t.jsonl: /);
    expect(() => parseCassette("t", cassette({ type: "tape", when: 3 }), "t.jsonl")).toThrow("Invalid tape on line 2 of t.jsonl: Invalid when: expected string");
    expect(() => parseCassette("t", cassette({ type: "tape" }, { type: "done", reason: "stop" }), "t.jsonl")).toThrow(
      'Line 3 of t.jsonl: an event before the first {"type":"turn"} line',
    );
  });
});
