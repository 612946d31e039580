import { describe, expect, it } from "vitest";
import { closest, didYouMean, editDistance, substringDistance, typoDistance } from "./index.js";

describe("closest names", () => {
  it("edit distance to the whole text, and to its nearest part", () => {
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(substringDistance("sonet", "claude-sonnet-5-5")).toBe(1);
    expect(substringDistance("sonnet", "claude-sonnet-5-5")).toBe(0);
    expect(substringDistance("abc", "")).toBe(3);
  });

  it("a slip inside a longer name beats a short unrelated one; ties keep the candidates' order", () => {
    const names = ["replay/demo", "openai/gpt-4o", "anthropic/claude-sonnet-5-5", "anthropic/claude-sonnet-4-6", "anthropic/claude-haiku-4-5"];
    expect(closest(names, "sonet", { limit: 2 })).toEqual(["anthropic/claude-sonnet-5-5", "anthropic/claude-sonnet-4-6"]);
    expect(closest(names, "SONNET", { limit: 1 })).toEqual(["anthropic/claude-sonnet-5-5"]);
  });

  it("maxDistance leaves out what is not close; a blank name gets nothing", () => {
    expect(closest(["retry", "compaction", "thinkingBudgets"], "retyr", { maxDistance: 2 })).toEqual(["retry"]);
    expect(closest(["retry", "compaction"], "zzzzzzzz", { maxDistance: 2 })).toEqual([]);
    expect(closest(["retry"], "  ")).toEqual([]);
  });

  it("wholeNames compares whole names: a slip counts, a shared part does not", () => {
    const providers = ["anthropic", "openai", "google", "fake-openai"];
    expect(closest(providers, "opnai", { wholeNames: true, maxDistance: 1 })).toEqual(["openai"]);
    expect(closest(providers, "fake-opneai", { wholeNames: true, maxDistance: 3 })[0]).toBe("fake-openai");
    expect(closest(providers, "nope", { wholeNames: true, maxDistance: 1 })).toEqual([]);
    expect(closest(providers, "nope", { maxDistance: 1 })).toEqual(["openai", "fake-openai"]);
  });

  it("typo distance counts a swapped pair of neighbouring letters as one edit", () => {
    expect(typoDistance("mdoe", "mode")).toBe(1);
    expect(editDistance("mdoe", "mode")).toBe(2);
    expect(typoDistance("plna", "plan")).toBe(1);
    expect(typoDistance("sesion", "session")).toBe(1);
    expect(typoDistance("port", "fork")).toBe(2);
    expect(typoDistance("", "mode")).toBe(4);
    expect(typoDistance("mode", "mode")).toBe(0);
    expect(typoDistance("ca", "abc")).toBe(3);
  });
});

describe("didYouMean", () => {
  it("names a known name one slip away, and nothing for a name that is no slip of one", () => {
    expect(didYouMean(["anthropic", "openai", "google"], "anthropc")).toBe(' Did you mean "anthropic"?');
    expect(didYouMean(["anthropic", "openai", "google"], "grok")).toBe("");
  });

  it("a swapped pair of neighbouring letters is one slip: modle is model, even in a short name", () => {
    expect(didYouMean(["cwd", "agentDir", "provider", "model", "session"], "modle")).toBe(' Did you mean "model"?');
    expect(didYouMean(["cwd", "agentDir"], "cdw")).toBe(' Did you mean "cwd"?');
  });
});
