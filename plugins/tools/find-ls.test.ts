import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeTree } from "./fixture-tree.js";
import { findTool } from "./find.js";
import { lsTool } from "./ls.js";
import { createToolRunner, makeTempDir, textOf } from "./test-harness.js";

const runner = createToolRunner([findTool, lsTool]);
let dir: string;
let cleanup: () => Promise<void>;
const run = async (name: string, args: Record<string, unknown>, cwd = dir) => textOf(await runner.run(name, args, { cwd }));

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
  await writeTree(dir);
});
afterEach(() => cleanup());

describe("find", () => {
  it("matches names at any depth, respecting nested .gitignore files", async () => {
    expect(await run("find", { pattern: "*.ts" })).toBe(".hidden/h.ts\nother/secret.ts\nsrc/a.ts");
    expect(await run("find", { pattern: "*.log" })).toBe("src/nested/keep.log");
  });

  it("matches path globs relative to the search directory and lists directories with /", async () => {
    expect(await run("find", { pattern: "src/**/*.{ts,js}" })).toBe("src/a.ts\nsrc/b.js");
    expect(await run("find", { pattern: "nested" })).toBe("src/nested/");
    expect(await run("find", { pattern: "*", path: "src/nested" })).toBe(".gitignore\nkeep.log");
  });

  it("applies .gitignore files above the search directory inside a git repository only", async () => {
    // A fresh dir: the fixture tree itself has a .git folder.
    const { dir: other, cleanup: clean } = await makeTempDir();
    try {
      await writeTree(other, { "repo/.gitignore": "*.gen.ts\n", "repo/sub/x.gen.ts": "", "repo/sub/y.ts": "" });
      expect(await run("find", { pattern: "*.ts", path: "repo/sub" }, other)).toBe("x.gen.ts\ny.ts");
      await mkdir(join(other, "repo/.git"));
      expect(await run("find", { pattern: "*.ts", path: "repo/sub" }, other)).toBe("y.ts");
      // An explicitly requested directory is searched even when the repository ignores it.
      await writeTree(other, { "repo/.gitignore": "*.gen.ts\nsub/\n" });
      expect(await run("find", { pattern: "*.ts", path: "repo/sub" }, other)).toBe("x.gen.ts\ny.ts");
      expect(await run("find", { pattern: "*.ts", path: "repo" }, other)).toBe("No files found matching pattern");
    } finally {
      await clean();
    }
  });

  it("limits results with a notice", async () => {
    const files = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`many/f${String(i).padStart(2, "0")}.txt`, ""]));
    await writeTree(dir, files);
    const text = await run("find", { pattern: "*.txt", limit: 10 });
    const expected = Array.from({ length: 10 }, (_, i) => `many/f${String(i).padStart(2, "0")}.txt`).join("\n");
    expect(text).toBe(`${expected}\n\n[10 results limit reached (30 total). Use limit=20 for more, or refine the pattern.]`);
  });

  it("says so when nothing matches, and rejects a missing directory", async () => {
    expect(await run("find", { pattern: "*.rs" })).toBe("No files found matching pattern");
    await expect(run("find", { pattern: "*", path: "nope" })).rejects.toThrow("Path not found: nope");
  });
});

describe("ls", () => {
  it("lists entries case-insensitively sorted, dotfiles included, directories marked", async () => {
    const { dir: other, cleanup: clean } = await makeTempDir();
    try {
      await writeTree(other, { "b.txt": "", "A.txt": "", ".dot": "", "Cdir/x": "", "a2.txt": "" });
      expect(await run("ls", {}, other)).toBe(".dot\nA.txt\na2.txt\nb.txt\nCdir/");
    } finally {
      await clean();
    }
  });

  it("shows what is on disk, gitignored entries included", async () => {
    expect(await run("ls", {})).toBe([".git/", ".gitignore", ".hidden/", "app.log", "bin.dat", "dist/", "node_modules/", "other/", "src/"].join("\n"));
    expect(await run("ls", { path: "src" })).toBe("a.ts\nb.js\nnested/");
  });

  it("limits entries with a notice", async () => {
    const text = await run("ls", { limit: 3 });
    expect(text).toBe(".git/\n.gitignore\n.hidden/\n\n[3 entries limit reached (9 total). Use limit=6 for more.]");
  });

  it("reports empty, missing and non-directory paths", async () => {
    await mkdir(join(dir, "empty"));
    expect(await run("ls", { path: "empty" })).toBe("(empty directory)");
    await expect(run("ls", { path: "missing" })).rejects.toThrow("Path not found: missing");
    await writeFile(join(dir, "file.txt"), "");
    await expect(run("ls", { path: "file.txt" })).rejects.toThrow("Not a directory: file.txt");
  });
});
