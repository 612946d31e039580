/** The edit tool on what models really send: a missing final newline, typography, big rewrites. */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { applyPatch, FILE_HEADERS_ONLY, formatPatch, structuredPatch } from "diff";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { diffReplacement } from "./edit-diff.js";
import { editTool } from "./edit.js";
import { createToolRunner, makeTempDir, textOf } from "./test-harness.js";

const runner = createToolRunner([editTool]);
let dir: string;
let cleanup: () => Promise<void>;
const edit = (path: string, oldText: string, newText: string) => runner.run("edit", { path, oldText, newText }, { cwd: dir });
const contents = (path: string) => readFile(join(dir, path), "utf8");

beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
afterEach(() => cleanup());

describe("edit: near misses a model makes", () => {
  it("matches oldText ending in a newline the file's last line lacks, and keeps the file without one", async () => {
    await writeFile(join(dir, "f.txt"), "first\nlast");
    const result = await edit("f.txt", "last\n", "final\n");
    expect(textOf(result)).toBe("Successfully replaced text in f.txt.");
    expect(await contents("f.txt")).toBe("first\nfinal");
  });

  it("matches through smart quotes, Unicode dashes and spaces, replacing only the matched span", async () => {
    const file = 'const a = "x"; // keep \u201Cthese\u201D\nlet b = 1 - 2;\n';
    await writeFile(join(dir, "q.ts"), file);
    const result = await edit("q.ts", "const a = \u201Cx\u201D;", "const a = 'y';");
    expect((result.details as { fuzzyMatch?: boolean }).fuzzyMatch).toBe(true);
    expect(await contents("q.ts")).toBe("const a = 'y'; // keep \u201Cthese\u201D\nlet b = 1 - 2;\n");
    await edit("q.ts", "let\u00A0b = 1 \u2013 2;", "let b = 3;");
    expect(await contents("q.ts")).toBe("const a = 'y'; // keep \u201Cthese\u201D\nlet b = 3;\n");
  });

  it("ignores trailing whitespace differences at line ends", async () => {
    await writeFile(join(dir, "w.py"), "def f():   \n    return 1\t\nx = 2\n");
    await edit("w.py", "def f():\n    return 1\n", "def f():\n    return 2\n");
    expect(await contents("w.py")).toBe("def f():\n    return 2\nx = 2\n");
  });

  it("still refuses a fuzzy match that is not unique", async () => {
    await writeFile(join(dir, "d.txt"), "say \u201Chi\u201D\nsay \u201Chi\u201D\n");
    await expect(edit("d.txt", 'say "hi"', 'say "yo"')).rejects.toThrow("Found 2 occurrences of the text in d.txt");
  });

  it("refuses files that are not UTF-8 text instead of corrupting them", async () => {
    const latin1 = Buffer.from("caf\xe9 = 1\n", "latin1");
    await writeFile(join(dir, "l1.txt"), latin1);
    await expect(edit("l1.txt", "= 1", "= 2")).rejects.toThrow("Cannot edit l1.txt: it is not UTF-8 text");
    expect(await readFile(join(dir, "l1.txt"))).toEqual(latin1);
  });
});

describe("edit: diffs", () => {
  it("gives the same diff as a whole-file diff, with absolute line numbers", async () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`);
    const original = lines.join("\n") + "\n";
    const cases: [string, string][] = [
      ["line 20\nline 21\n", "changed\n"],
      ["line 1\n", ""],
      ["line 40\n", "line 40\nline 41\n"],
      ["ne 7\nline 8", "NE 7\nLINE 8\nextra"],
    ];
    for (const [oldText, newText] of cases) {
      const start = original.indexOf(oldText);
      const updated = original.slice(0, start) + newText + original.slice(start + oldText.length);
      const expected = formatPatch(structuredPatch("f", "f", original, updated, undefined, undefined, { context: 3 }), FILE_HEADERS_ONLY);
      expect((await diffReplacement("f", original, updated, start, start + oldText.length)).diff).toBe(expected);
    }
  });

  it("gives a patch that turns the old file into the new one, on random edits with and without a final newline", async () => {
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let round = 0; round < 300; round++) {
      const lines = Array.from({ length: 1 + random(15) }, () => ["a", "b", "c", ""][random(4)]!);
      const original = lines.join("\n") + (random(2) ? "\n" : "");
      const start = random(original.length);
      const end = start + 1 + random(original.length - start);
      const updated = original.slice(0, start) + ["x", "\n", "a\nb\n", ""][random(4)] + original.slice(end);
      if (updated === original) continue;
      const { diff } = await diffReplacement("f", original, updated, start, end);
      expect(applyPatch(original, diff), JSON.stringify({ original, start, end, updated, diff })).toBe(updated);
    }
  });

  // A whole-file Myers diff of this block runs far past the test's timeout; the hunk below is the
  // one the bounded diff produces.
  it("rewrites a large block (no whole-file Myers diff)", async () => {
    const lines = Array.from({ length: 60_000 }, (_, i) => `row ${i} of the table`);
    await writeFile(join(dir, "big.txt"), lines.join("\n") + "\n");
    const block = lines.slice(10_000, 40_000).join("\n");
    const result = await edit("big.txt", block, block.replace(/table/g, "TABLE"));
    const { diff, firstChangedLine } = result.details as { diff: string; firstChangedLine: number };
    expect(firstChangedLine).toBe(10_001);
    expect(diff).toContain("@@ -9998,30006 +9998,30006 @@\n row 9997 of the table\n");
    expect(diff.split("\n").filter((line) => line.startsWith("+row")).length).toBe(30_000);
  });
});
