/** Paths as models write them, and files that are not plain files: clear results, never a hang. */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findTool } from "./find.js";
import { createGrepTool } from "./grep.js";
import { lsTool } from "./ls.js";
import { MAX_IMAGE_BYTES, readTool } from "./read.js";
import { createToolRunner, makeTempDir, textOf } from "./test-harness.js";
import { writeTool } from "./write.js";

const runner = createToolRunner([readTool, writeTool, createGrepTool(), findTool, lsTool]);
let dir: string;
let cleanup: () => Promise<void>;
const run = (name: string, args: Record<string, unknown>) => runner.run(name, args, { cwd: dir });
/** Fails fast instead of hanging the test run when a tool blocks forever. */
const settled = <T>(promise: Promise<T>) =>
  Promise.race([
    promise.then(
      (value) => ({ value }),
      (error: Error) => ({ error: error.message }),
    ),
    new Promise((resolve) => setTimeout(() => resolve("hung"), 3000)),
  ]);

beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
afterEach(() => cleanup());

describe("tool paths as models write them", () => {
  it("strips a leading @ (a chat mention) when the literal path does not exist", async () => {
    await writeFile(join(dir, "notes.txt"), "from notes");
    expect(textOf(await run("read", { path: "@notes.txt" }))).toBe("from notes");
    expect(textOf(await run("ls", { path: "@." }))).toContain("notes.txt");
    await run("write", { path: "@new/x.txt", content: "x" });
    expect(await readFile(join(dir, "new/x.txt"), "utf8")).toBe("x");
    await run("write", { path: "@top.txt", content: "t" });
    expect(await readFile(join(dir, "top.txt"), "utf8")).toBe("t");
    expect(existsSync(join(dir, "@new")) || existsSync(join(dir, "@top.txt"))).toBe(false);
  });

  it("keeps a real @ directory (e.g. a scoped package)", async () => {
    await mkdir(join(dir, "@scope/pkg"), { recursive: true });
    await run("write", { path: "@scope/pkg/index.js", content: "y" });
    expect(await readFile(join(dir, "@scope/pkg/index.js"), "utf8")).toBe("y");
  });

  it("finds a file whatever the Unicode form, typographic apostrophe or macOS AM/PM space", async () => {
    await writeFile(join(dir, "caf\u00e9.txt"), "nfc");
    await writeFile(join(dir, "it\u2019s.txt"), "curly");
    await writeFile(join(dir, "Shot 10.00.00\u202FAM.png.txt"), "narrow");
    expect(textOf(await run("read", { path: "cafe\u0301.txt" }))).toBe("nfc");
    expect(textOf(await run("read", { path: "it's.txt" }))).toBe("curly");
    expect(textOf(await run("read", { path: "Shot 10.00.00 AM.png.txt" }))).toBe("narrow");
    expect(textOf(await run("read", { path: "  caf\u00e9.txt\u00a0" }))).toBe("nfc");
  });

  it("refuses an empty path for read/write, and lists the cwd for an empty optional path", async () => {
    await expect(run("read", { path: "" })).rejects.toThrow("Path must not be empty");
    await expect(run("write", { path: " ", content: "x" })).rejects.toThrow("Path must not be empty");
    await writeFile(join(dir, "here.txt"), "needle");
    expect(textOf(await run("ls", { path: "" }))).toBe("here.txt");
    expect(textOf(await run("grep", { pattern: "needle", path: "" }))).toBe("here.txt:1: needle");
    expect(textOf(await run("find", { pattern: "*.txt", path: " " }))).toBe("here.txt");
  });
});

describe("files that are not plain text files", () => {
  it("gives clear errors for a directory target and a symlink loop", async () => {
    await mkdir(join(dir, "sub"));
    await expect(run("write", { path: "sub", content: "x" })).rejects.toThrow("Cannot write sub: it is a directory.");
    await writeFile(join(dir, "file"), "");
    await expect(run("write", { path: "file/inner.txt", content: "x" })).rejects.toThrow("Cannot write file/inner.txt: a parent path exists and is not a directory.");
    await symlink("loop", join(dir, "loop"));
    await expect(run("read", { path: "loop" })).rejects.toThrow("Too many levels of symbolic links (a symlink loop?): loop");
  });

  it.skipIf(process.platform === "win32")("read, grep and write never block on a FIFO", async () => {
    execFileSync("mkfifo", [join(dir, "pipe")]);
    await writeFile(join(dir, "a.txt"), "needle\n");
    expect(await settled(run("read", { path: "pipe" }))).toEqual({ error: "Cannot read pipe: it is not a regular file (a device, socket or FIFO)." });
    expect(await settled(run("grep", { pattern: "needle" }))).toMatchObject({ value: { content: [{ text: "a.txt:1: needle" }] } });
    expect(await settled(run("grep", { pattern: "needle", path: "pipe" }))).toMatchObject({ value: { content: [{ text: "No matches found" }] } });
    expect(await settled(run("write", { path: "pipe", content: "x" }))).toEqual({ error: "Cannot write pipe: it is not a regular file." });
  });

  it("refuses an image too large for the providers instead of attaching it", async () => {
    const png = Buffer.alloc(MAX_IMAGE_BYTES + 1);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(png);
    await writeFile(join(dir, "huge.png"), png);
    await expect(run("read", { path: "huge.png" })).rejects.toThrow(/^Cannot attach huge\.png: the image is 3\.8MB, over the \S+ limit for images/);
  });

  it("says when it cannot know whether lines follow a huge unterminated line", async () => {
    await writeFile(join(dir, "one-line.txt"), "x".repeat(9 * 1024 * 1024));
    const text = textOf(await run("read", { path: "one-line.txt" }));
    expect(text.endsWith("Any further lines start at offset=2.]")).toBe(true);
  });
});
