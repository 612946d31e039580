import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeTree } from "./fixture-tree.js";
import { createGrepTool } from "./grep.js";
import { createToolRunner, makeTempDir, textOf } from "./test-harness.js";

const runner = createToolRunner([createGrepTool()]);
let dir: string;
let cleanup: () => Promise<void>;
const grep = async (args: Record<string, unknown>) => textOf(await runner.run("grep", args, { cwd: dir }));

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
  await writeTree(dir);
});
afterEach(() => cleanup());

describe("grep: file selection", () => {
  it("respects root and nested .gitignore files, skips .git, node_modules and binaries", async () => {
    expect(await grep({ pattern: "foo" })).toBe(
      [".hidden/h.ts:1: foo hidden", "other/secret.ts:1: foo other secret", "src/a.ts:1: const foo = 1;", "src/a.ts:3: export { foo };", "src/nested/keep.log:1: foo log"].join(
        "\n",
      ),
    );
  });

  it("narrows with a glob (no slash: any depth; with slash: relative path)", async () => {
    expect(await grep({ pattern: "foo", glob: "*.ts" })).toBe(
      [".hidden/h.ts:1: foo hidden", "other/secret.ts:1: foo other secret", "src/a.ts:1: const foo = 1;", "src/a.ts:3: export { foo };"].join("\n"),
    );
    expect(await grep({ pattern: "foo", glob: "src/**/*.log" })).toBe("src/nested/keep.log:1: foo log");
  });

  it("searches a subdirectory or a single file, with paths relative to it", async () => {
    expect(await grep({ pattern: "foo", path: "src/nested" })).toBe("keep.log:1: foo log");
    expect(await grep({ pattern: "bar", path: "src/a.ts" })).toBe("a.ts:2: const bar = 2;");
  });

  it("reports no matches and a missing path", async () => {
    expect(await grep({ pattern: "zzz" })).toBe("No matches found");
    await expect(grep({ pattern: "foo", path: "nowhere" })).rejects.toThrow("Path not found: nowhere");
  });
});

describe("grep: matching", () => {
  it("matches case-insensitively on request", async () => {
    expect(await grep({ pattern: "FOO", path: "src", glob: "*.js" })).toBe("No matches found");
    expect(await grep({ pattern: "FOO", path: "src", glob: "*.js", ignoreCase: true })).toBe("b.js:1: Foo here");
  });

  it("treats the pattern literally on request", async () => {
    expect(await grep({ pattern: "foo.*1", path: "src" })).toBe("a.ts:1: const foo = 1;");
    expect(await grep({ pattern: "foo.*1", path: "src", literal: true })).toBe("No matches found");
    expect(await grep({ pattern: "{ foo }", path: "src", literal: true })).toBe("a.ts:3: export { foo };");
    await expect(grep({ pattern: "(unclosed" })).rejects.toThrow("Invalid regular expression");
  });

  it("prints context lines and separates distant groups", async () => {
    await writeFile(join(dir, "ctx.txt"), Array.from({ length: 10 }, (_, i) => (i === 1 || i === 7 ? `hit ${i + 1}` : `l${i + 1}`)).join("\n"));
    expect(await grep({ pattern: "hit", path: "ctx.txt", context: 1 })).toBe(
      ["ctx.txt-1- l1", "ctx.txt:2: hit 2", "ctx.txt-3- l3", "--", "ctx.txt-7- l7", "ctx.txt:8: hit 8", "ctx.txt-9- l9"].join("\n"),
    );
  });

  it("merges overlapping context windows without repeating lines", async () => {
    await writeFile(join(dir, "near.txt"), "a\nhit1\nb\nhit2\nc\n");
    expect(await grep({ pattern: "hit", path: "near.txt", context: 1 })).toBe(
      ["near.txt-1- a", "near.txt:2: hit1", "near.txt-3- b", "near.txt:4: hit2", "near.txt-5- c"].join("\n"),
    );
  });
});

describe("grep: bounds", () => {
  it("stops at the match limit with a notice", async () => {
    await writeFile(join(dir, "many.txt"), Array.from({ length: 10 }, (_, i) => `match ${i + 1}`).join("\n"));
    const text = await grep({ pattern: "match", path: "many.txt", limit: 3 });
    expect(text).toBe("many.txt:1: match 1\nmany.txt:2: match 2\nmany.txt:3: match 3\n\n[3 matches limit reached. Use limit=6 for more, or refine the pattern.]");
  });

  it("cuts long lines at 500 characters", async () => {
    await writeFile(join(dir, "long.txt"), `needle ${"y".repeat(700)}\n`);
    const text = await grep({ pattern: "needle", path: "long.txt" });
    expect(text.split("\n")[0]).toBe(`long.txt:1: ${`needle ${"y".repeat(700)}`.slice(0, 500)}... [truncated]`);
    expect(text).toContain("Some lines were cut to 500 characters");
  });

  it("bounds the total output at 50 KiB", async () => {
    await writeFile(join(dir, "big.txt"), Array.from({ length: 2000 }, (_, i) => `match ${i} ${"z".repeat(100)}`).join("\n"));
    const text = await grep({ pattern: "match", path: "big.txt", limit: 5000 });
    const [body, notice] = text.split("\n\n");
    expect(Buffer.byteLength(body!)).toBeLessThanOrEqual(51_200);
    expect(body!.split("\n").length).toBeGreaterThan(400);
    expect(notice).toBe("[50.0KB output limit reached. Refine the pattern or path to see more.]");
  });

  it("honours an aborted signal", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(runner.run("grep", { pattern: "foo" }, { cwd: dir, signal: controller.signal })).rejects.toThrow("Operation aborted");
  });
});
