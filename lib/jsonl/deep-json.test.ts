import { describe, expect, it } from "vitest";
import { stringifyDeep, stringifyRecord } from "./deep-json.js";

describe("deep JSON", () => {
  it.each([
    [{ a: 1, b: 'x\u2028"y', c: [1, null, undefined, () => 1], d: undefined, e: { f: true, g: -0, h: NaN } }],
    [[]],
    [{}],
    [{ date: new Date(0), nested: [{ toJSON: () => "custom" }] }],
    ["plain"],
    [42],
  ])("matches JSON.stringify for %j", (value) => {
    expect(stringifyDeep(value)).toBe(JSON.stringify(value));
  });

  it("serialises a tree deeper than the stack allows", () => {
    const root: { entry: { id: number }; children: unknown[] } = { entry: { id: 0 }, children: [] };
    let node = root;
    for (let i = 1; i < 100_000; i++) {
      const child = { entry: { id: i }, children: [] as unknown[] };
      node.children.push(child);
      node = child;
    }
    expect(() => JSON.stringify(root)).toThrow(RangeError);
    const text = stringifyRecord({ type: "response", data: { tree: [root] } });
    let parsed = (JSON.parse(text) as { data: { tree: { entry: { id: number }; children: unknown[] }[] } }).data.tree[0]!;
    let depth = 0;
    while (parsed.children.length > 0) {
      parsed = parsed.children[0] as typeof parsed;
      depth++;
    }
    expect(depth).toBe(99_999);
    expect(parsed.entry.id).toBe(99_999);
  });

  it("still refuses cycles", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => stringifyDeep(cyclic)).toThrow(/circular/);
  });
});
