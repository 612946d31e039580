/** The append queue when its file leaves its path: written again whole, or a replacement left alone; nothing queued lost. */
import { mkdirSync, readdirSync } from "node:fs";
import { mkdtemp, readFile, rename, rm, rmdir, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { JsonlWriter } from "./writer.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "atomic-writer-lost-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** A writer whose memory holds every line written, as the session tree does. */
function writerWithMemory(path: string) {
  const memory: string[] = [];
  const events: string[] = [];
  const writer = new JsonlWriter(path, {
    fresh: true,
    onError: (error) => events.push(`error ${error.message}`),
    onRewritten: () => events.push("rewritten"),
  });
  writer.rewriteFrom(() => memory.slice());
  const write = (line: string) => {
    memory.push(line);
    writer.write(line);
  };
  return { writer, write, events, memory };
}

describe("JsonlWriter when its file leaves its path", () => {
  it("writes the whole file again at its path when it was deleted, with the lines queued while it did", async () => {
    const path = join(dir, "s.jsonl");
    const { writer, write, events, memory } = writerWithMemory(path);
    write("h\n");
    write("1\n");
    await writer.flush();
    await unlink(path);
    write("2\n");
    write("3\n");
    await writer.flush();
    expect(events).toEqual(["rewritten"]);
    write("4\n");
    await writer.close();
    expect(await readFile(path, "utf8")).toBe(memory.join(""));
    expect(readdirSync(dir)).toEqual(["s.jsonl"]);
  });

  it("leaves a file put in its place alone, keeps every line, and writes them all once the path is free", async () => {
    const path = join(dir, "s.jsonl");
    const { writer, write, events, memory } = writerWithMemory(path);
    write("h\n");
    await writer.flush();
    await writeFile(join(dir, "other"), "someone else's\n");
    await rename(join(dir, "other"), path);
    write("1\n");
    await writer.flush();
    write("2\n");
    expect((await writer.retry())?.message).toMatch(/replaced by another file while in use/);
    expect(events.filter((e) => e.startsWith("error"))).toHaveLength(1);
    expect(await readFile(path, "utf8")).toBe("someone else's\n");
    await unlink(path);
    expect(await writer.retry()).toBeUndefined();
    await writer.close();
    expect(await readFile(path, "utf8")).toBe(memory.join(""));
  });

  it("drops nothing when writing the whole file fails: the file moved back gets what was queued", async () => {
    const path = join(dir, "s.jsonl");
    const away = join(dir, "away.jsonl");
    const { writer, write, events, memory } = writerWithMemory(path);
    write("h\n");
    await writer.flush();
    // A folder where the whole file would be written first: that write fails.
    mkdirSync(join(dir, ".s.jsonl.partial"));
    await rename(path, away);
    write("1\n");
    await writer.flush();
    write("2\n");
    expect((await writer.retry())?.message).toMatch(/not a regular file/);
    expect(events).toHaveLength(1);
    await rename(away, path);
    await rmdir(join(dir, ".s.jsonl.partial"));
    write("3\n");
    expect(await writer.retry()).toBeUndefined();
    await writer.close();
    expect(await readFile(path, "utf8")).toBe(memory.join(""));
  });
});
