/** The append queue under write failures: nothing lost, nothing glued to a torn line, order kept. */
import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, readFile, rm, stat, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { JsonlWriter } from "./writer.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "atomic-writer-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("JsonlWriter", () => {
  it("keeps lines a failed write could not store and writes them first once writing works again", async () => {
    // A file where the session directory should be: mkdir fails until it is removed.
    const blocker = join(dir, "sessions");
    await writeFile(blocker, "");
    const errors: string[] = [];
    const writer = new JsonlWriter(join(blocker, "s.jsonl"), { onError: (error) => errors.push(error.message) });
    writer.write('{"n":1}\n');
    writer.write('{"n":2}\n');
    await writer.flush();
    expect(errors).toHaveLength(1);

    await unlink(blocker);
    writer.write('{"n":3}\n');
    await writer.close();
    expect(await readFile(join(blocker, "s.jsonl"), "utf8")).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
  });

  it("retries left-over lines on close", async () => {
    const blocker = join(dir, "sessions");
    await writeFile(blocker, "");
    const writer = new JsonlWriter(join(blocker, "s.jsonl"));
    writer.write('{"n":1}\n');
    await writer.flush();
    await unlink(blocker);
    await writer.close();
    expect(await readFile(join(blocker, "s.jsonl"), "utf8")).toBe('{"n":1}\n');
  });

  it("keeps the torn-line prefix when the first write fails", async () => {
    const blocker = join(dir, "sessions");
    await writeFile(blocker, "");
    const writer = new JsonlWriter(join(blocker, "s.jsonl"), { prefix: "\n" });
    writer.write('{"n":1}\n');
    await writer.flush();
    await unlink(blocker);
    writer.write('{"n":2}\n');
    await writer.close();
    expect(await readFile(join(blocker, "s.jsonl"), "utf8")).toBe('\n{"n":1}\n{"n":2}\n');
  });

  it("reports each run of failures once, and the first success after it; files 0600 in folders 0700", async () => {
    const blocker = join(dir, "sessions");
    await writeFile(blocker, "");
    const events: string[] = [];
    const writer = new JsonlWriter(join(blocker, "deep", "s.jsonl"), {
      onError: (error) => events.push(`error ${(error as NodeJS.ErrnoException).code}`),
      onSuccess: () => events.push("ok"),
    });
    for (const n of [1, 2]) {
      writer.write(`{"n":${n}}\n`);
      await writer.flush();
    }
    await unlink(blocker);
    writer.write('{"n":3}\n');
    await writer.flush();
    writer.write('{"n":4}\n');
    await writer.flush();
    expect(events).toEqual(["error ENOTDIR", "ok"]);
    await writer.close();
    expect((await stat(join(blocker, "deep", "s.jsonl"))).mode & 0o777).toBe(0o600);
    expect((await stat(join(blocker, "deep"))).mode & 0o777).toBe(0o700);
    expect((await stat(blocker)).mode & 0o777).toBe(0o700);
  });

  it("makes a fresh file appear only with its first write in it", async () => {
    const path = join(dir, "sessions", "s.jsonl");
    const writer = new JsonlWriter(path, { fresh: true });
    expect(existsSync(path)).toBe(false);
    writer.write('{"header":1}\n');
    await writer.flush();
    writer.write('{"n":2}\n');
    await writer.close();
    expect(await readFile(path, "utf8")).toBe('{"header":1}\n{"n":2}\n');
    expect(readdirSync(join(dir, "sessions"))).toEqual(["s.jsonl"]);
  });
});
