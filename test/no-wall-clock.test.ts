/**
 * No test asserts speed: an upper bound on elapsed wall-clock time fails on a busy machine (the
 * suite in parallel, other work on the same cores) without any bug. Tests assert behaviour
 * (ordering, counts, states); a timeout only catches a hang; timings belong in bench/.
 *
 * Flagged: `expect(<elapsed>).toBeLessThan(...)` (or `...OrEqual`) where the expected value is a
 * clock difference: `Date.now()`, `performance.now()`, `process.hrtime`, or a name that says it
 * holds one (`elapsed`, `took`, `waited`, `duration`, `...Ms`, `.ms`). Lower bounds stay allowed:
 * a slow machine only makes them truer.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..");
const SKIP = new Set(["node_modules", "dist", ".git"]);
const CLOCK = /Date\.now\(\)|performance\.now\(\)|hrtime|\belapsed\w*|\btook\w*|\bwaited\w*|\bduration\w*|\w+Ms\b|\.ms\b/;
const UPPER_BOUND = /\.toBeLessThan(?:OrEqual)?\(/;

function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...testFiles(path));
    else if (name.endsWith(".test.ts") && path !== import.meta.filename) out.push(path);
  }
  return out;
}

/** The argument of each `expect(...)` whose chain ends in an upper bound, with its line number. */
function upperBoundedClocks(source: string): { line: number; text: string }[] {
  const found: { line: number; text: string }[] = [];
  for (const match of source.matchAll(/expect\(/g)) {
    const start = match.index + match[0].length;
    let depth = 1;
    let end = start;
    while (end < source.length && depth > 0) {
      const char = source[end]!;
      if (char === "(") depth++;
      else if (char === ")") depth--;
      end++;
    }
    const argument = source.slice(start, end - 1);
    const matcher = /^\s*(?:\.not)?\.\w+\(/.exec(source.slice(end, end + 80))?.[0] ?? "";
    if (!UPPER_BOUND.test(matcher) || !CLOCK.test(argument)) continue;
    found.push({ line: source.slice(0, match.index).split("\n").length, text: `expect(${argument})${matcher}` });
  }
  return found;
}

describe("wall-clock assertions", () => {
  it("the detector flags an elapsed-time upper bound and leaves counts and lower bounds alone", () => {
    const flagged = upperBoundedClocks(
      [
        // Input for the detector, split so a plain search for such assertions does not find this line.
        "expect(Date.now() - started)" + ".toBeLessThan(8000);",
        "expect(run.ms, command).toBeLessThan(60_000);",
        "expect(slowestPingMs).toBeLessThanOrEqual(6000);",
        "expect(waited).toBeGreaterThanOrEqual(3_900);",
        "expect(count).toBeLessThanOrEqual(Math.ceil(elapsed / 50) + 2);",
        'expect(types.indexOf("a")).toBeLessThan(types.indexOf("b"));',
      ].join("\n"),
    );
    expect(flagged.map((hit) => hit.line)).toEqual([1, 2, 3]);
  });

  it("no test bounds elapsed time from above", () => {
    const offenders = testFiles(ROOT).flatMap((path) => upperBoundedClocks(readFileSync(path, "utf8")).map((hit) => `${relative(ROOT, path)}:${hit.line}: ${hit.text}`));
    expect(offenders).toEqual([]);
  });
});
