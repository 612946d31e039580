import { describe, expect, it } from "vitest";
import type { Model } from "./types.js";
import { clampThinkingLevel, thinkingLevelsFor } from "./thinking.js";

function model(overrides: Partial<Model>): Model {
  return {
    id: "m",
    name: "M",
    api: "test",
    provider: "test",
    baseUrl: "",
    reasoning: false,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 1000,
    maxTokens: 100,
    ...overrides,
  };
}

describe("thinkingLevelsFor", () => {
  it("derives levels from reasoning, honours an explicit list, and allows everything without a model", () => {
    expect(thinkingLevelsFor(model({ reasoning: false }))).toEqual(["off"]);
    expect(thinkingLevelsFor(model({ reasoning: true }))).toEqual(["off", "minimal", "low", "medium", "high"]);
    expect(thinkingLevelsFor(model({ reasoning: true, thinkingLevels: ["off", "high", "max"] }))).toEqual(["off", "high", "max"]);
    expect(thinkingLevelsFor(model({ reasoning: true, thinkingLevels: [] }))).toEqual(["off", "minimal", "low", "medium", "high"]);
    expect(thinkingLevelsFor(null)).toEqual(["off", "minimal", "low", "medium", "high", "xhigh", "max"]);
  });
});

describe("clampThinkingLevel", () => {
  it("keeps an allowed level, else goes to the nearest level upward, then downward", () => {
    expect(clampThinkingLevel("low", ["off", "low", "high"])).toBe("low");
    expect(clampThinkingLevel("medium", ["off", "low", "high"])).toBe("high");
    expect(clampThinkingLevel("minimal", ["off", "high"])).toBe("high");
    expect(clampThinkingLevel("max", ["off", "low", "high"])).toBe("high");
    expect(clampThinkingLevel("medium", ["off"])).toBe("off");
    expect(clampThinkingLevel("high", [])).toBe("off");
  });
});
