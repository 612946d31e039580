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

  it("starts the files that took long last time first, each group in its shuffled order", () => {
    const slow = new Set(["/r/test/f3.e2e.test.ts", "/r/test/f7.test.ts", "/r/test/f8.test.ts"]);
    const order = endToEndFirst(files, 7, (file) => (slow.has(file.moduleId) ? 30_000 : 500));
    const plain = endToEndFirst(files, 7);
    expect(order[0]!.moduleId).toBe("/r/test/f3.e2e.test.ts");
    expect(order.slice(1, 14)).toEqual(plain.slice(0, 14).filter((file) => !slow.has(file.moduleId)));
    expect(new Set(order.slice(14, 16).map((file) => file.moduleId))).toEqual(new Set(["/r/test/f7.test.ts", "/r/test/f8.test.ts"]));
    expect(order.slice(16)).toEqual(plain.slice(14).filter((file) => !slow.has(file.moduleId)));
  });

  it("shuffles by the seed: the same seed gives the same order, another seed another", () => {
    expect(shuffled(files, 42)).toEqual(shuffled(files, 42));
    expect(shuffled(files, 42)).not.toEqual(shuffled(files, 43));
    expect(shuffled(files, 42)).not.toEqual(files);
  });
});
