import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { unlessStalled } from "./index.js";

const MODULE = join(import.meta.dirname, "index.ts");

const JITI_CLI = join(import.meta.dirname, "../../node_modules/jiti/lib/jiti-cli.mjs");

/** Runs `body` in a fresh Node (the stall is the whole process running dry); its stdout. */
function inProcess(body: string): string {
  const dir = mkdtempSync(join(tmpdir(), "atomic-stall-"));
  try {
    const file = join(dir, "script.ts");
    writeFileSync(file, `import { unlessStalled } from ${JSON.stringify(MODULE)};\n${body}`);
    return execFileSync(process.execPath, [JITI_CLI, file], { encoding: "utf8" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("unlessStalled", () => {
  it("passes work through that settles", async () => {
    expect(await unlessStalled(Promise.resolve(7), () => 0)).toBe(7);
    await expect(unlessStalled(Promise.reject(new Error("no")), () => 0)).rejects.toThrow("no");
  });

  it("answers a promise nothing can settle once the process runs dry, the innermost first, and lets the process go on", () => {
    const out = inProcess(`
const never = new Promise(() => {});
const outer = unlessStalled(never, () => "outer stalled");
const inner = unlessStalled(never, () => "inner stalled");
inner.then((v) => { console.log(v); setTimeout(() => console.log("went on"), 5); });
outer.then((v) => console.log(v));
`);
    expect(out).toBe("inner stalled\nwent on\nouter stalled\n");
  });

  it("never cuts short work that still waits on a timer", () => {
    expect(inProcess(`unlessStalled(new Promise((r) => setTimeout(() => r("done"), 50)), () => "stalled").then((v) => console.log(v));`)).toBe("done\n");
  });
});
