import { parse as parsePartialJson } from "partial-json";
import { describe, expect, it } from "vitest";
import { StreamingJson } from "./streaming-json.js";

/**
 * The reading every snapshot must reproduce, written out independently of the module: the
 * prefix closed (open string, open containers) and handed to JSON.parse, else partial-json.
 */
function reference(prefix: string): unknown {
  if (prefix.trim() === "") return undefined;
  const closers: string[] = [];
  let inString = false;
  let escaped = false;
  for (const char of prefix) {
    if (inString) {
      if (escaped) escaped = false;
      else if (char === "\\") escaped = true;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{" || char === "[") closers.push(char === "{" ? "}" : "]");
    else if (char === "}" || char === "]") closers.pop();
  }
  if (!(inString && escaped)) {
    try {
      return JSON.parse(prefix + (inString ? '"' : "") + closers.reverse().join(""));
    } catch {
      // the lenient parser below
    }
  }
  try {
    return parsePartialJson(prefix);
  } catch {
    return undefined;
  }
}

type Next = () => number;

function randomNumberText(next: Next): string {
  return ["0", "-1", "12.5", "1e21", "-0.25", "1E5", "-2.5e-3", "1e+2", "0.0", "-0", "123456789012345678901234567890"][next() % 11]!;
}

/** JSON text of a random value, with random (valid) whitespace between tokens when `spaced`. */
function randomJson(next: Next, depth: number, spaced: boolean): string {
  const ws = () => (spaced ? [" ", "", "\n  ", "\t", ""][next() % 5]! : "");
  const kind = next() % (depth > 3 ? 5 : 7);
  switch (kind) {
    case 0:
      return JSON.stringify(["", "plain", 'q"uote', "back\\slash", "line\nbreak", "uni é 😀", "\u2028", "\\u0041", "e"][next() % 9]);
    case 1:
      return randomNumberText(next);
    case 2:
      return ["true", "false", "null"][next() % 3]!;
    case 3:
      return ['"\\u00e9\\u0041x"', '"\\ud83d\\ude00"', '"a\\/b\\b\\f\\r\\t"', '"x".repeat'].slice(0, 3)[next() % 3]!;
    case 4:
      return JSON.stringify("x".repeat(next() % 40));
    case 5: {
      const items = Array.from({ length: next() % 4 }, () => ws() + randomJson(next, depth + 1, spaced) + ws());
      return `[${items.join(",")}]`;
    }
    default: {
      const keys = Array.from(
        { length: next() % 4 },
        (_, i) => `${ws()}${JSON.stringify(`k${i}${["", '"', "é", "e"][next() % 4]}`)}${ws()}:${ws()}${randomJson(next, depth + 1, spaced)}${ws()}`,
      );
      return `{${keys.join(",")}}`;
    }
  }
}

function seeded(seed: number): Next {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
}

/** Streams `text` in random pieces; every snapshot must equal the reference reading of its prefix. */
function expectSameReadings(text: string, next: Next, maxPiece = 7): void {
  const streaming = new StreamingJson();
  const snapshots: { prefix: string; value: unknown }[] = [];
  for (let at = 0; at < text.length; ) {
    const size = 1 + (next() % maxPiece);
    streaming.push(text.slice(at, at + size));
    at += size;
    const prefix = text.slice(0, at);
    const value = streaming.value();
    expect(value, prefix).toStrictEqual(reference(prefix));
    snapshots.push({ prefix, value });
  }
  expect(streaming.raw).toBe(text);
  // Later fragments never change a snapshot already handed out.
  for (const { prefix, value } of snapshots) expect(value, `snapshot of ${prefix}`).toStrictEqual(reference(prefix));
}

describe("StreamingJson", () => {
  it("reads every prefix of random JSON, cut at random points, as the reference does", () => {
    const next = seeded(42);
    for (let round = 0; round < 400; round++) {
      const text = `{"path":"p","value":${randomJson(next, 0, round % 2 === 1)}}`;
      expectSameReadings(text, next);
    }
  });

  it("reads every single-character prefix of spaced JSON and of top-level scalars", () => {
    const next = seeded(7);
    for (let round = 0; round < 150; round++) expectSameReadings(`  ${randomJson(next, 0, true)} `, next, 1);
    for (const text of ['"abc\\u00e9d"', "-12.5e+3", "1E5", "true", "null", "-", "1.", '"a\\']) expectSameReadings(text, next, 1);
  });

  it("reads unfinished numbers, literals, escapes and keys as the reference does", () => {
    const next = seeded(3);
    const cases = [
      '{"a":1e',
      '{"a":1E',
      '{"e":1E+',
      '{"a":-1.5e-',
      '{"a":1.',
      '{"name":-',
      '{"a":tr',
      "[fa",
      "[n",
      '{"a":"x\\u00e',
      '{"a":"x\\',
      '{"k\\u00',
      '{"a":1,"a":',
      '{"a":1,"a":"x',
      '{"a":{"b":[1,{"c":tru',
      '{"1":1,"0":2,"b":',
    ];
    for (const text of cases) expectSameReadings(text, next, 1);
  });

  it("gives the reference reading for text that is not a JSON prefix, and for the constructs partial-json reads its own way", () => {
    const next = seeded(11);
    const cases = [
      '{"a":[ ],"b":1,"c":tr',
      "[[ ],1,[\n]]",
      '{"__proto__":{"x":1},"b":2,"c":',
      '{"a":01,"b":',
      '{"a":1,}',
      '{"a" 1}',
      '{"a":"x"} trailing',
      '{"a":"bad\u0001char","b":',
      '{"a":"\\x"}',
      '{"a":tx}',
      '\u00a0{"a":1}',
    ];
    for (const text of cases) expectSameReadings(text, next, 1);
    // Random damage to valid JSON: a character dropped, doubled or replaced.
    for (let round = 0; round < 300; round++) {
      const valid = `{"path":"p","value":${randomJson(next, 0, round % 2 === 0)}}`;
      const at = next() % valid.length;
      const damaged = [
        valid.slice(0, at) + valid.slice(at + 1),
        valid.slice(0, at) + valid[at] + valid.slice(at),
        valid.slice(0, at) + '{}[]",:1e- '[next() % 11] + valid.slice(at + 1),
      ][next() % 3]!;
      expectSameReadings(damaged, next);
    }
  });

  it("reads a long streamed string once: the value grows with each fragment", () => {
    const streaming = new StreamingJson();
    const text = JSON.stringify({ path: "a.txt", content: 'line "one"\n'.repeat(2_000) });
    for (let i = 0; i < text.length; i += 20) streaming.push(text.slice(i, i + 20));
    expect(streaming.value()).toStrictEqual(JSON.parse(text));
  });
});
