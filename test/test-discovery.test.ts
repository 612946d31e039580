/**
 * Every `*.test.ts` in the repository is one vitest runs: a folder missing from the config's
 * `include` list has tests that silently never run (host/ had four failing ones that way).
 */
import { readdirSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import config from "../vitest.config.js";

const ROOT = resolve(import.meta.dirname, "..");
const SKIP = new Set(["node_modules", "dist", ".git"]);

function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...testFiles(path));
    else if (name.endsWith(".test.ts")) out.push(relative(ROOT, path));
  }
  return out;
}

describe("test discovery", () => {
  it("the vitest config includes every test file in the repository", () => {
    const included = picomatch(config.test?.include ?? []);
    const files = testFiles(ROOT);
    expect(files.length).toBeGreaterThan(200);
    expect(files.filter((file) => !included(file))).toEqual([]);
  });
});
