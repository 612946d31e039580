import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { editTool } from "./edit.js";
import { createToolRunner, makeTempDir, textOf } from "./test-harness.js";
import { writeTool } from "./write.js";

const runner = createToolRunner([writeTool, editTool]);
let dir: string;
let cleanup: () => Promise<void>;
const run = (name: string, args: Record<string, unknown>) => runner.run(name, args, { cwd: dir });
const contents = (path: string) => readFile(join(dir, path), "utf8");

beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
afterEach(() => cleanup());

describe("write", () => {
  it("creates missing parent directories and reports the byte count", async () => {
    const result = await run("write", { path: "a/b/c.txt", content: "héllo" });
    expect(textOf(result)).toBe("Successfully wrote 6 bytes to a/b/c.txt");
    expect(await contents("a/b/c.txt")).toBe("héllo");
  });

  it("overwrites an existing file", async () => {
    await writeFile(join(dir, "f.txt"), "old content that is longer");
    await run("write", { path: "f.txt", content: "new" });
    expect(await contents("f.txt")).toBe("new");
  });
});

describe("edit", () => {
  it("replaces a unique occurrence and returns a diff with the first changed line", async () => {
    await writeFile(join(dir, "f.ts"), "one\ntwo\nthree\nfour\n");
    const result = await run("edit", { path: "f.ts", oldText: "three", newText: "THREE $& $1" });
    expect(textOf(result)).toBe("Successfully replaced text in f.ts.");
    expect(await contents("f.ts")).toBe("one\ntwo\nTHREE $& $1\nfour\n");
    const details = result.details as { diff: string; firstChangedLine: number };
    expect(details.firstChangedLine).toBe(3);
    expect(details.diff).toContain("--- f.ts\n+++ f.ts\n@@ -1,4 +1,4 @@\n one\n two\n-three\n+THREE $& $1\n four\n");
  });

  it("reports text that is not found", async () => {
    await writeFile(join(dir, "f.txt"), "alpha\n");
    await expect(run("edit", { path: "f.txt", oldText: "beta", newText: "x" })).rejects.toThrow("Could not find the text in f.txt");
  });

  it("refuses ambiguous text, naming the number of occurrences", async () => {
    await writeFile(join(dir, "f.txt"), "x = 1\nx = 1\nx = 1\n");
    await expect(run("edit", { path: "f.txt", oldText: "x = 1", newText: "x = 2" })).rejects.toThrow("Found 3 occurrences of the text in f.txt; oldText must be unique");
    expect(await contents("f.txt")).toBe("x = 1\nx = 1\nx = 1\n");
  });

  it("refuses a replacement that changes nothing", async () => {
    await writeFile(join(dir, "f.txt"), "same\n");
    await expect(run("edit", { path: "f.txt", oldText: "same", newText: "same" })).rejects.toThrow("No changes made");
  });

  it("reports a missing file", async () => {
    await expect(run("edit", { path: "missing.txt", oldText: "a", newText: "b" })).rejects.toThrow("File not found: missing.txt");
  });

  it("matches LF text in a CRLF file with a BOM and keeps both", async () => {
    await writeFile(join(dir, "win.txt"), "\uFEFFfirst\r\nsecond\r\nthird\r\n");
    await run("edit", { path: "win.txt", oldText: "second\nthird", newText: "2nd\nthird\nfourth" });
    const bytes = await readFile(join(dir, "win.txt"));
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(bytes.toString("utf8")).toBe("\uFEFFfirst\r\n2nd\r\nthird\r\nfourth\r\n");
  });

  it("keeps LF files LF", async () => {
    await writeFile(join(dir, "unix.txt"), "a\nb\n");
    await run("edit", { path: "unix.txt", oldText: "b", newText: "c\nd" });
    expect(await contents("unix.txt")).toBe("a\nc\nd\n");
  });
});
