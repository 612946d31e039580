import { describe, expect, it } from "vitest";
import { describeJsonError } from "../json-error/index.js";
import { parseJsonc, readJsonc } from "./index.js";

function errorOf(text: string): string {
  try {
    parseJsonc(text);
  } catch (error) {
    return describeJsonError(text, error);
  }
  throw new Error("parsed");
}

describe("parseJsonc", () => {
  it("reads // comments and trailing commas; strings that look like them are kept", () => {
    const text = '{\n  // the key\n  "url": "http://x//y", // after\n  "list": [1, 2,],\n  "s": ",}",\n}\n';
    expect(parseJsonc(text)).toEqual({ url: "http://x//y", list: [1, 2], s: ",}" });
    expect(readJsonc(text).comments).toBe(true);
    expect(readJsonc('{"a": [1,],}').comments).toBe(false);
    expect(readJsonc('{"a": "// not a comment"}')).toEqual({ value: { a: "// not a comment" }, comments: false });
  });

  it("an error after a comment or a trailing comma is placed where it is in the file as written", () => {
    expect(errorOf('{\n  // a comment, with a comma,\n  "a": 1,\n  "b": 2 "c": 3\n}')).toMatch(/ at line 4, column 10$/);
    expect(errorOf('{"a": [1,],\n "b" 2}')).toMatch(/ at line 2, column 6$/);
  });

  it("plain JSON's own error is kept when there is nothing to blank out", () => {
    expect(errorOf("{ half")).toMatch(/ at line 1, column 3$/);
  });
});
