import { parse as parsePartialJson } from "partial-json";
import { describe, expect, it } from "vitest";
import { StreamingJson } from "./streaming-json.js";

function randomValue(next: () => number, depth: number): unknown {
  const kind = next() % (depth > 3 ? 5 : 7);
  switch (kind) {
    case 0:
      return ["", "plain", 'q"uote', "back\\slash", "line\nbreak", "uni é 😀", "\u2028", "\\u0041"][next() % 8];
    case 1:
      return [0, -1, 12.5, 1e21, -0.25][next() % 5];
    case 2:
      return [true, false][next() % 2];
    case 3:
      return null;
    case 4:
      return "x".repeat(next() % 40);
    case 5:
      return Array.from({ length: next() % 4 }, () => randomValue(next, depth + 1));
    default:
      return Object.fromEntries(Array.from({ length: next() % 4 }, (_, i) => [`k${i}${["", "\"", "é"][next() % 3]}`, randomValue(next, depth + 1)]));
  }
}

describe("StreamingJson", () => {
  it("agrees with the lenient parser on every prefix of random JSON, cut at random points", () => {
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let round = 0; round < 300; round++) {
      const text = JSON.stringify({ path: "p", value: randomValue(next, 0) });
      const streaming = new StreamingJson();
      for (let at = 0; at < text.length; ) {
        const size = 1 + (next() % 7);
        streaming.push(text.slice(at, at + size));
        at += size;
        const prefix = text.slice(0, at);
        let expected: unknown;
        try {
          expected = parsePartialJson(prefix);
        } catch {
          expected = undefined;
        }
        expect(streaming.value(), prefix).toEqual(expected);
      }
      expect(streaming.value()).toEqual(JSON.parse(text));
      expect(streaming.raw).toBe(text);
    }
  });

});
