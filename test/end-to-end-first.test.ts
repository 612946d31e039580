import { describe, expect, it } from "vitest";
import { endToEndFirst, shuffled } from "./helpers/end-to-end-first.js";

const files = Array.from({ length: 40 }, (_, i) => ({ moduleId: `/r/test/f${i}${i % 3 === 0 ? ".e2e" : ""}.test.ts` }));

describe("the test file order", () => {
  it("puts every end-to-end file before every unit file", () => {
    const order = endToEndFirst(files, 7);
    const firstUnit = order.findIndex((file) => !file.moduleId.endsWith(".e2e.test.ts"));
    expect(firstUnit).toBe(14);
    expect(order.slice(firstUnit).every((file) => !file.moduleId.endsWith(".e2e.test.ts"))).toBe(true);
    expect(new Set(order)).toEqual(new Set(files));
  });

  it("shuffles by the seed: the same seed gives the same order, another seed another", () => {
    expect(shuffled(files, 42)).toEqual(shuffled(files, 42));
    expect(shuffled(files, 42)).not.toEqual(shuffled(files, 43));
    expect(shuffled(files, 42)).not.toEqual(files);
  });
});
