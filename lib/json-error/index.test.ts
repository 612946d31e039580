import { describe, expect, it } from "vitest";
import { describeJsonError } from "./index.js";

function errorOf(text: string): unknown {
  try {
    JSON.parse(text);
  } catch (error) {
    return error;
  }
  throw new Error("parsed");
}

describe("describeJsonError", () => {
  it("gives the line and column of the fault, never a bare position", () => {
    const text = '{\n  "a": 1,\n  "b": 2,\n}\n';
    const described = describeJsonError(text, errorOf(text));
    expect(described).toMatch(/ at line 4, column 1$/);
    expect(described).not.toMatch(/position|\(line/);
  });

  it("a file cut short is placed at its end", () => {
    const text = '{\n  "a": [1, 2';
    expect(describeJsonError(text, errorOf(text))).toMatch(/ at line 2, column 13$/);
  });

  it("counts columns from 1 on the first line", () => {
    const text = "{x}";
    expect(describeJsonError(text, errorOf(text))).toMatch(/ at line 1, column 2$/);
  });

  it("a message without a place is passed on as it is", () => {
    expect(describeJsonError("{}", new Error("Something else"))).toBe("Something else");
  });
});
