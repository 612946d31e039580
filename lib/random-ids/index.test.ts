import { describe, expect, it } from "vitest";
import { randomHex, secureRandomHex, uuidV7 } from "./index.js";

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("random ids", () => {
  it("uuidV7 has the RFC 9562 layout, the timestamp first, and does not repeat", () => {
    const ids = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      const id = uuidV7();
      expect(id).toMatch(UUID_V7);
      ids.add(id);
    }
    expect(ids.size).toBe(10_000);
    expect(uuidV7(0x0123456789ab).startsWith("01234567-89ab-7")).toBe(true);
    expect(uuidV7(1_000).localeCompare(uuidV7(2_000))).toBe(-1);
  });

  it("randomHex and secureRandomHex give that many bytes of hex, every value reachable", () => {
    expect(randomHex(8)).toMatch(/^[0-9a-f]{16}$/);
    expect(secureRandomHex(12)).toMatch(/^[0-9a-f]{24}$/);
    const seen = new Set(randomHex(20_000).match(/../g));
    expect(seen.size).toBe(256);
  });
});
