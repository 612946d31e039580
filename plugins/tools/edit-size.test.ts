/**
 * How much of a file the file tools load: edit refuses a file over MAX_EDIT_FILE_BYTES before
 * reading it (a 200 MB sparse file, which costs no disk), also when the sandbox's file guard wraps
 * it; read pages through the same file without loading it.
 */
import { open, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FileGuard } from "../sandbox/api.js";
import { editTool, MAX_EDIT_FILE_BYTES } from "./edit.js";
import { readTool } from "./read.js";
import { withPathGuard } from "./sandboxed.js";
import { createToolRunner, makeTempDir, textOf } from "./test-harness.js";

const HEAD = "first line\nTARGET\n".padEnd(16 * 1024, "x");
let dir: string;
let cleanup: () => Promise<void>;

beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
afterEach(() => cleanup());

/** A file of `bytes` bytes: text first, then a hole (NUL bytes no disk holds). */
async function sparse(name: string, bytes: number): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, HEAD);
  const handle = await open(path, "r+");
  await handle.truncate(bytes);
  await handle.close();
  return path;
}

describe("edit: the size of file it loads", () => {
  const runner = createToolRunner([editTool]);
  const edit = (path: string) => runner.run("edit", { path, oldText: "TARGET", newText: "DONE" }, { cwd: dir });

  it("refuses a 200 MB file before reading it, saying how large it is, the limit and what to use; the file is untouched", async () => {
    const path = await sparse("big.log", 200 * 1024 * 1024);
    await expect(edit("big.log")).rejects.toThrow(
      "Cannot edit big.log: it is 200.0MB, over the 32.0MB the edit tool loads. Change it with bash (sed, or a script that streams it), or split it first.",
    );
    expect((await stat(path)).size).toBe(200 * 1024 * 1024);
    const handle = await open(path, "r");
    const { buffer } = await handle.read(Buffer.alloc(HEAD.length), 0, HEAD.length, 0);
    await handle.close();
    expect(buffer.toString()).toBe(HEAD);
  });

  it("loads a file of exactly the limit (this one is then refused for its NUL bytes), not one byte more", async () => {
    await sparse("at-limit.bin", MAX_EDIT_FILE_BYTES);
    await expect(edit("at-limit.bin")).rejects.toThrow("Cannot edit at-limit.bin: it is not UTF-8 text");
    await sparse("over-limit.bin", MAX_EDIT_FILE_BYTES + 1);
    await expect(edit("over-limit.bin")).rejects.toThrow("Cannot edit over-limit.bin: it is 32.0MB, over the 32.0MB the edit tool loads.");
  });

  it("inside the sandbox's file guard: the guard checks the path first, then the same refusal, and the hold is let go", async () => {
    await sparse("big.log", 200 * 1024 * 1024);
    const seen: string[] = [];
    const guard: FileGuard = {
      check: async (path, access) => (seen.push(`check ${access} ${path}`), path),
      deniedWithin: async () => [],
      mayFollow: async () => true,
      hold: async () => (seen.push("hold"), () => void seen.push("release")),
    };
    const guarded = createToolRunner([withPathGuard(editTool, () => guard)]);
    await expect(guarded.run("edit", { path: "big.log", oldText: "TARGET", newText: "DONE" }, { cwd: dir })).rejects.toThrow(
      "Cannot edit big.log: it is 200.0MB, over the 32.0MB the edit tool loads.",
    );
    expect(seen).toEqual(["hold", `check write ${join(dir, "big.log")}`, "release"]);
  });

  it("edits a file under the limit as before", async () => {
    await writeFile(join(dir, "small.txt"), "first line\nTARGET\n");
    expect(textOf(await edit("small.txt"))).toBe("Successfully replaced text in small.txt.");
    expect(await readFile(join(dir, "small.txt"), "utf8")).toBe("first line\nDONE\n");
  });
});

describe("read: the size of file it loads", () => {
  it("pages through a 200 MB file: its first lines, and where to go on", async () => {
    await sparse("big.log", 200 * 1024 * 1024);
    const runner = createToolRunner([readTool]);
    const result = await runner.run("read", { path: "big.log", limit: 2 }, { cwd: dir });
    expect(textOf(result)).toMatch(/^first line\nTARGET\n\n\[More lines in file\. Use offset=3 to continue\.\]$/);
  });
});
