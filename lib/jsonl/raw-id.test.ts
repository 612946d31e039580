import { describe, expect, it } from "vitest";
import { rawNumericId, withRawId } from "./raw-id.js";

describe("exact numeric ids", () => {
  it.each([
    ['{"id":12345678901234567890,"type":"get_state"}', "12345678901234567890"],
    ['{"type":"get_state","id":-0}', "-0"],
    ['{ "id" : 1.50 , "type":"x"}', "1.50"],
    ['{"type":"x","nested":{"id":7},"id":1e2}', "1e2"],
    ['{"type":"x","text":"\\"id\\":9","id":10.0}', "10.0"],
  ])("%s keeps its id text", (line, raw) => {
    expect(rawNumericId(line, JSON.parse(line).id)).toBe(raw);
  });

  it("costs nothing when the id re-serialises to the same text or is a string", () => {
    expect(rawNumericId('{"id":42,"type":"x"}', 42)).toBeUndefined();
    expect(rawNumericId('{"id":"42","type":"x"}', "42")).toBeUndefined();
  });

  it("splices the original text into the serialised response", () => {
    const serialised = JSON.stringify({ id: 12345678901234567000, type: "response", command: "get_state", success: true });
    expect(withRawId(serialised, "12345678901234567890")).toBe('{"id":12345678901234567890,"type":"response","command":"get_state","success":true}');
  });
});
