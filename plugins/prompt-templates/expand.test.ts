import { describe, expect, it } from "vitest";
import { ExpansionTooLarge, expandTemplate, splitArguments } from "./expand.js";

describe("splitArguments", () => {
  it.each([
    ["", []],
    ["a b\tc\nd", ["a", "b", "c", "d"]],
    ['a "b c" d', ["a", "b c", "d"]],
    ["'x y' \"z\"", ["x y", "z"]],
    ['say "it\'s" fine', ["say", "it's", "fine"]],
    ['a"b c"d', ["ab cd"]],
    ['"" x', ["", "x"]],
    ["it's broken", ["it's", "broken"]],
    ['open "quote never closed', ["open", '"quote', "never", "closed"]],
    ["  padded  ", ["padded"]],
  ])("%j -> %j", (text, expected) => {
    expect(splitArguments(text)).toEqual(expected);
  });
});

describe("expandTemplate", () => {
  it("positional, all, missing", () => {
    expect(expandTemplate("Fix $1 in $2 ($3).", ["bug", "a.ts"])).toBe("Fix bug in a.ts ().");
    expect(expandTemplate("All: $@ / $ARGUMENTS", ["a", "b c"])).toBe("All: a b c / a b c");
  });

  it("$10 is the tenth argument, not $1 then 0", () => {
    const args = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "ten"];
    expect(expandTemplate("$10|$1", args)).toBe("ten|1");
    expect(expandTemplate("$10", ["one"])).toBe("");
  });

  it("a lone $, $0 and unknown forms stay as written", () => {
    expect(expandTemplate("costs $ and $0 and $x and ${foo} and $", ["a"])).toBe("costs $ and $0 and $x and ${foo} and $");
  });

  it("\\$ escapes a dollar", () => {
    expect(expandTemplate("price \\$10, arg $1", ["a"])).toBe("price $10, arg a");
  });

  it("defaults and slices", () => {
    expect(expandTemplate("${1:-main} ${2:-none} ${@:-nothing}", ["dev"])).toBe("dev none dev");
    expect(expandTemplate("${@:-nothing}", [])).toBe("nothing");
    expect(expandTemplate("${1:-x}", [""])).toBe("x");
    expect(expandTemplate("${@:2}|${@:2:1}|${@:5}", ["a", "b", "c"])).toBe("b c|b|");
  });

  it("substituted text is not expanded again", () => {
    expect(expandTemplate("$1 $2", ["$2", "b"])).toBe("$2 b");
  });

  it("may add at most the growth limit to its arguments, counted before the text is built", () => {
    expect(expandTemplate("$@ $@", ["abc"], 10)).toBe("abc abc");
    expect(() => expandTemplate("$@".repeat(20), ["abc"], 10)).toThrow(ExpansionTooLarge);
    expect(() => expandTemplate("$1".repeat(20), ["abc"], 10)).toThrow("the template expands to more than 13 characters (its arguments' 3 plus 10, the most a template may add)");
    // A long argument used once is not growth.
    expect(expandTemplate("Review: $@", ["x".repeat(100)], 10)).toHaveLength(108);
  });
});
