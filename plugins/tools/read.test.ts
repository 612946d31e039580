import { truncate, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readTool } from "./read.js";
import { createToolRunner, makeTempDir, textOf } from "./test-harness.js";

const runner = createToolRunner([readTool]);
let dir: string;
let cleanup: () => Promise<void>;
const read = (args: Record<string, unknown>, signal?: AbortSignal) => runner.run("read", args, { cwd: dir, signal });
const lines = (count: number, width = 0) => Array.from({ length: count }, (_, i) => `line${i + 1}`.padEnd(width, "x"));

beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
afterEach(() => cleanup());

describe("read: text", () => {
  it("returns a small file verbatim, without notice", async () => {
    await writeFile(join(dir, "a.txt"), "hello\nworld\n");
    expect(textOf(await read({ path: "a.txt" }))).toBe("hello\nworld");
  });

  it("resolves absolute paths and ~", async () => {
    await writeFile(join(dir, "abs.txt"), "abs");
    expect(textOf(await read({ path: join(dir, "abs.txt") }))).toBe("abs");
    const fromHome = relative(homedir(), join(dir, "abs.txt"));
    if (!fromHome.startsWith("..")) expect(textOf(await read({ path: `~/${fromHome}` }))).toBe("abs");
  });

  it("applies offset and limit with a continuation notice", async () => {
    await writeFile(join(dir, "ten.txt"), lines(10).join("\n") + "\n");
    expect(textOf(await read({ path: "ten.txt", offset: 3, limit: 2 }))).toBe("line3\nline4\n\n[6 more lines in file. Use offset=5 to continue.]");
    expect(textOf(await read({ path: "ten.txt", offset: 9, limit: 2 }))).toBe("line9\nline10");
    expect(textOf(await read({ path: "ten.txt", offset: 10 }))).toBe("line10");
  });

  it("errors clearly when the offset is past the end", async () => {
    await writeFile(join(dir, "ten.txt"), lines(10).join("\n"));
    await expect(read({ path: "ten.txt", offset: 11 })).rejects.toThrow("Offset 11 is beyond end of file (10 lines total)");
  });

  it("truncates at 2000 lines and continues from the offset it names", async () => {
    const all = lines(2500);
    await writeFile(join(dir, "long.txt"), all.join("\n"));
    const first = textOf(await read({ path: "long.txt" }));
    expect(first).toBe(all.slice(0, 2000).join("\n") + "\n\n[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]");
    expect(textOf(await read({ path: "long.txt", offset: 2001 }))).toBe(all.slice(2000).join("\n"));
  });

  it("truncates at 51,200 bytes keeping whole lines", async () => {
    const all = lines(200, 500); // 500 bytes + separator: 102 lines fit
    await writeFile(join(dir, "wide.txt"), all.join("\n"));
    expect(textOf(await read({ path: "wide.txt" }))).toBe(all.slice(0, 102).join("\n") + "\n\n[Showing lines 1-102 of 200 (50.0KB limit). Use offset=103 to continue.]");
  });

  it("returns the start of a single line longer than the byte limit", async () => {
    await writeFile(join(dir, "one.txt"), "a".repeat(60_000) + "\nnext\n");
    const text = textOf(await read({ path: "one.txt" }));
    expect(text.startsWith("a".repeat(51_200) + "\n\n[Line 1 (58.6KB) is over the 50.0KB limit")).toBe(true);
    expect(text).toContain("Use offset=2 to continue.");
  });

  // Read whole, 1 GB would not fit a string (the read fails) or would take far past the test's
  // timeout: no wall-clock bound needed.
  it("reads a window of a 1 GB file without reading it whole", async () => {
    const path = join(dir, "huge.txt");
    await writeFile(path, lines(3000).join("\n") + "\n"); // > 8 KB of text before the NUL hole
    await truncate(path, 1024 ** 3); // sparse: no real disk use, and far too big to read whole
    const text = textOf(await read({ path: "huge.txt", offset: 5, limit: 10 }));
    expect(text).toBe(lines(14).slice(4).join("\n") + "\n\n[More lines in file. Use offset=15 to continue.]");
    const page = textOf(await read({ path: "huge.txt" }));
    expect(page.endsWith("line2000\n\n[Showing lines 1-2000 of a 1.0GB file. Use offset=2001 to continue.]")).toBe(true);
  });

  it("reports an empty file", async () => {
    await writeFile(join(dir, "empty.txt"), "");
    expect(textOf(await read({ path: "empty.txt" }))).toBe("(empty file)");
  });
});

describe("read: other files", () => {
  it("returns images (detected from bytes) as an image block", async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32, 7)]);
    await writeFile(join(dir, "pic.dat"), png);
    const result = await read({ path: "pic.dat" });
    expect(result.content).toEqual([
      { type: "text", text: "Read image file [image/png]" },
      { type: "image", data: png.toString("base64"), mimeType: "image/png" },
    ]);
    await writeFile(join(dir, "photo.txt"), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]));
    expect(textOf(await read({ path: "photo.txt" }))).toBe("Read image file [image/jpeg]");
    await writeFile(join(dir, "anim"), Buffer.from("GIF89a\0\0"));
    expect(textOf(await read({ path: "anim" }))).toBe("Read image file [image/gif]");
    await writeFile(join(dir, "w"), Buffer.from("RIFF\x10\0\0\0WEBPVP8 ", "latin1"));
    expect(textOf(await read({ path: "w" }))).toBe("Read image file [image/webp]");
  });

  it("refuses binary files", async () => {
    await writeFile(join(dir, "bin"), Buffer.from([0x41, 0x00, 0x42]));
    await expect(read({ path: "bin" })).rejects.toThrow("Cannot read bin: it is a binary file");
  });

  it("reports a missing file and a directory", async () => {
    await expect(read({ path: "nope.txt" })).rejects.toThrow("File not found: nope.txt");
    await expect(read({ path: "." })).rejects.toThrow("is a directory");
  });

  it("honours an aborted signal", async () => {
    await writeFile(join(dir, "a.txt"), "x");
    const controller = new AbortController();
    controller.abort();
    await expect(read({ path: "a.txt" }, controller.signal)).rejects.toThrow("Operation aborted");
  });

  it("validates parameters through the schema", async () => {
    await expect(read({ path: "a.txt", offset: 0 })).rejects.toThrow(/Invalid offset/);
    expect(runner.registry.specs()[0]!.parameters).toMatchObject({ required: ["path"], properties: { offset: { type: "integer" } } });
  });
});
