/** The kernel stays ignorant: it imports only tapable, zod, jiti, node built-ins and itself. */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const KERNEL = resolve(import.meta.dirname, "../kernel");
const ALLOWED = /^(node:|tapable$|zod$|jiti$|jiti\/native$|\.\/)/;

function importsOf(raw: string): string[] {
  const source = raw.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const found: string[] = [];
  for (const match of source.matchAll(/(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|declare module ['"]([^'"]+)['"]/g)) {
    found.push((match[1] ?? match[2] ?? match[3])!);
  }
  return found;
}

describe("architecture", () => {
  const files = readdirSync(KERNEL).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));

  it("has kernel files to check", () => {
    expect(files.length).toBeGreaterThan(5);
  });

  it.each(files)("kernel/%s imports no plugin, SDK or transport", (file) => {
    const bad = importsOf(readFileSync(join(KERNEL, file), "utf8")).filter((spec) => !ALLOWED.test(spec));
    expect(bad).toEqual([]);
  });

  it("the checker itself catches a forbidden import", () => {
    expect(importsOf(`import x from "../plugins/agent/index.js";\nconst s = await import("openai");`)).toEqual(["../plugins/agent/index.js", "openai"]);
  });
});
