import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ErrorCode } from "../../kernel/index.js";
import { updateJsonFile } from "./index.js";

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
    await expect(updateJsonFile(path, () => ({ b: 2 }))).rejects.toMatchObject({ code: ErrorCode.CONFIG_INVALID, message: expect.stringContaining(`Cannot update ${path}: it is not valid JSON`) });
    expect(readFileSync(path, "utf8")).toBe("{ half");
    writeFileSync(path, "[1,2]");
    await expect(updateJsonFile(path, () => ({}))).rejects.toThrow("does not hold a JSON object");
  });

  it("writes with the requested mode", async () => {
    const path = file();
    await updateJsonFile(path, () => ({ key: "secret" }), { mode: 0o600, dirMode: 0o700 });
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});
