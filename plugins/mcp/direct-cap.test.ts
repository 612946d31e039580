import { describe, expect, it } from "vitest";
import { allocateDirect, cutDescription, DEFAULT_DIRECT_CAPS, offeredChars, type DirectCaps } from "./direct-cap.js";

const tools = (prefix: string, count: number, chars = 10) => Array.from({ length: count }, (_, i) => ({ name: `${prefix}${i}`, chars }));
const caps = (over: Partial<DirectCaps>): DirectCaps => ({ ...DEFAULT_DIRECT_CAPS, ...over });

describe("direct tool caps", () => {
  it("keeps a server's first tools up to its count, naming the setting that stopped it", () => {
    const result = allocateDirect([{ name: "a", tools: tools("t", 5) }], caps({ perServer: 3 }));
    expect([...result.get("a")!.capped]).toEqual(["t3", "t4"]);
    expect(result.get("a")!.setting).toBe("perServer");
  });

  it("shares the total between servers in their order", () => {
    const result = allocateDirect(
      [
        { name: "a", tools: tools("a", 3) },
        { name: "b", tools: tools("b", 3) },
      ],
      caps({ perServer: 10, total: 4 }),
    );
    expect(result.get("a")!.capped.size).toBe(0);
    expect([...result.get("b")!.capped]).toEqual(["b1", "b2"]);
    expect(result.get("b")!.setting).toBe("total");
  });

  it("budgets characters per server and in all; a small tool after a big one still fits", () => {
    const perServer = allocateDirect([{ name: "a", tools: [...tools("s", 2, 40), { name: "big", chars: 500 }, { name: "small", chars: 10 }] }], caps({ perServerChars: 100 }));
    expect([...perServer.get("a")!.capped]).toEqual(["big"]);
    expect(perServer.get("a")!.setting).toBe("perServerChars");
    const total = allocateDirect(
      [
        { name: "a", tools: tools("a", 2, 40) },
        { name: "b", tools: tools("b", 2, 40) },
      ],
      caps({ totalChars: 120 }),
    );
    expect([...total.get("b")!.capped]).toEqual(["b1"]);
    expect(total.get("b")!.setting).toBe("totalChars");
  });

  it("cuts a long description, saying so; counts the description as offered and the schema", () => {
    expect(cutDescription("abcdef", 10)).toBe("abcdef");
    expect(cutDescription("abcdef", 3)).toBe("abc... [description cut at 3 characters]");
    expect(offeredChars({ description: "x".repeat(5000), inputSchema: { type: "object" } }, 100)).toBe(
      cutDescription("x".repeat(5000), 100).length + JSON.stringify({ type: "object" }).length,
    );
  });
});
