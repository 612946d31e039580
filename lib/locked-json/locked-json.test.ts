import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ErrorCode } from "../../kernel/index.js";
import { JsonFileUpdates, updateJsonFile } from "./index.js";

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

function file(): string {
  const dir = mkdtempSync(join(tmpdir(), "atomic-locked-"));
  dirs.push(dir);
  return join(dir, "nested", "settings.json");
}

describe("updateJsonFile", () => {
  it("50 concurrent read-modify-writes keep every key", async () => {
    const path = file();
    await Promise.all(Array.from({ length: 50 }, (_, i) => updateJsonFile(path, (current) => ({ ...current, [`k${i}`]: i }))));
    expect(Object.keys(JSON.parse(readFileSync(path, "utf8")))).toHaveLength(50);
  });

  it("never replaces a file it cannot parse, and names it", async () => {
    const path = file();
    await updateJsonFile(path, () => ({ a: 1 }));
    writeFileSync(path, "{ half");
    await expect(updateJsonFile(path, () => ({ b: 2 }))).rejects.toMatchObject({
      code: ErrorCode.CONFIG_INVALID,
      message: expect.stringContaining(`Cannot update ${path}: it is not valid JSON`),
    });
    expect(readFileSync(path, "utf8")).toBe("{ half");
    writeFileSync(path, "[1,2]");
    await expect(updateJsonFile(path, () => ({}))).rejects.toThrow("does not hold a JSON object");
  });

  it("reads trailing commas as the config readers do; a file with // comments is left as it is, since writing it would drop them", async () => {
    const path = file();
    await updateJsonFile(path, () => ({ a: 1 }));
    writeFileSync(path, '{"a": [1,],}');
    await updateJsonFile(path, (current) => ({ ...current, b: 2 }));
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ a: [1], b: 2 });
    const commented = '{\n  // why a is 1\n  "a": 1\n}\n';
    writeFileSync(path, commented);
    await expect(updateJsonFile(path, () => ({ b: 2 }))).rejects.toMatchObject({
      code: ErrorCode.CONFIG_INVALID,
      message: `Cannot update ${path}: it holds // comments, which writing it would drop; remove them first, or make the change in the file by hand`,
    });
    expect(readFileSync(path, "utf8")).toBe(commented);
  });

  it("writes with the requested mode", async () => {
    const path = file();
    await updateJsonFile(path, () => ({ key: "secret" }), { mode: 0o600, dirMode: 0o700 });
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("writes through a symlink to its target, which keeps its mode; the link stays a link", async () => {
    const path = file();
    const dotfiles = join(path, "..", "..", "dotfiles");
    mkdirSync(join(path, ".."), { recursive: true });
    mkdirSync(dotfiles);
    const target = join(dotfiles, "atomic-settings.json");
    writeFileSync(target, JSON.stringify({ kept: true }));
    chmodSync(target, 0o640);
    // A relative link, as GNU stow makes them.
    symlinkSync("../dotfiles/atomic-settings.json", path);
    await updateJsonFile(path, (current) => ({ ...current, added: 1 }));
    expect(lstatSync(path).isSymbolicLink()).toBe(true);
    expect(readlinkSync(path)).toBe("../dotfiles/atomic-settings.json");
    expect(JSON.parse(readFileSync(target, "utf8"))).toEqual({ kept: true, added: 1 });
    expect(statSync(target).mode & 0o777).toBe(0o640);
  });

  it("follows a chain of links and creates a missing target; a private file never gets wider than its mode", async () => {
    const path = file();
    const dir = join(path, "..");
    mkdirSync(dir, { recursive: true });
    symlinkSync(join(dir, "middle.json"), path);
    symlinkSync(join(dir, "real.json"), join(dir, "middle.json"));
    await updateJsonFile(path, () => ({ key: "secret" }), { mode: 0o600 });
    expect(lstatSync(join(dir, "middle.json")).isSymbolicLink()).toBe(true);
    expect(statSync(join(dir, "real.json")).mode & 0o777).toBe(0o600);
    chmodSync(join(dir, "real.json"), 0o644);
    await updateJsonFile(path, (current) => ({ ...current, more: 1 }), { mode: 0o600 });
    expect(statSync(join(dir, "real.json")).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(join(dir, "real.json"), "utf8"))).toEqual({ key: "secret", more: 1 });
  });

  it("keeps a regular file's own mode (a 0600 settings file stays 0600)", async () => {
    const path = file();
    await updateJsonFile(path, () => ({ a: 1 }));
    chmodSync(path, 0o600);
    await updateJsonFile(path, (current) => ({ ...current, b: 2 }));
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});

describe("JsonFileUpdates", () => {
  it("queues one process's updates of a file, so each sees the one before", async () => {
    const path = file();
    const updates = new JsonFileUpdates();
    const seen: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        updates.update(path, (current) => {
          seen.push(Object.keys(current).length);
          return { ...current, [`k${i}`]: i };
        }),
      ),
    );
    expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it("a failed update does not stop the next one", async () => {
    const path = file();
    const updates = new JsonFileUpdates();
    const failed = updates.update(path, () => {
      throw new Error("no");
    });
    const next = updates.update(path, () => ({ a: 1 }));
    await expect(failed).rejects.toThrow("no");
    expect(await next).toEqual({ a: 1 });
  });
});
