import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { shellWord } from "./index.js";

const WORDS = ["plain", "my dir", "it's me", 'say "hi"', "$HOME", "a\\b", "tab\there", "!bang", "", "@scope/pkg@1.2", "--flag=x"];

describe("shellWord", () => {
  it("leaves safe words as they are and quotes the rest", () => {
    expect(shellWord("@scope/pkg@1.2")).toBe("@scope/pkg@1.2");
    expect(shellWord("my dir")).toBe("'my dir'");
    expect(shellWord("my dir", "readable")).toBe('"my dir"');
    expect(shellWord("it's me")).toBe("'it'\\''s me'");
    expect(shellWord("$HOME", "readable")).toBe("'$HOME'");
    expect(shellWord("")).toBe("''");
  });

  it("every word, in both styles, is read back by a shell as it was", () => {
    for (const style of ["single", "readable"] as const) {
      const line = WORDS.map((word) => shellWord(word, style)).join(" ");
      const echoed = execFileSync("sh", ["-c", `printf '%s\\0' ${line}`], { encoding: "utf8" });
      expect(echoed.split("\0").slice(0, -1), `${style}: ${line}`).toEqual(WORDS);
    }
  });
});
