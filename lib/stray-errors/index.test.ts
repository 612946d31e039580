import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const MODULE = join(import.meta.dirname, "index.ts");
const JITI_CLI = join(import.meta.dirname, "../../node_modules/jiti/lib/jiti-cli.mjs");

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh Node with the handlers installed (they are the process's), `body` run after. */
function script(body: string): string {
  const dir = mkdtempSync(join(tmpdir(), "atomic-stray-"));
  dirs.push(dir);
  const file = join(dir, "script.ts");
  writeFileSync(
    file,
    `import { claimStrayErrors, handleStrayErrors } from ${JSON.stringify(MODULE)};
handleStrayErrors((error, kind) => { console.log("fatal", kind, (error as Error).message); process.exit(1); });
claimStrayErrors((error, kind) => (error as Error).message.startsWith("mine") && (console.log("claimed", kind, (error as Error).message), true));
${body}`,
  );
  return file;
}

describe("stray errors", () => {
  it("a claimed rejection or exception is reported and the process goes on", () => {
    const file = script(`Promise.reject(new Error("mine: rejected"));\nsetTimeout(() => { throw new Error("mine: thrown"); }, 1);\nsetTimeout(() => console.log("went on"), 20);`);
    expect(execFileSync(process.execPath, [JITI_CLI, file], { encoding: "utf8" })).toBe(
      "claimed unhandled_rejection mine: rejected\nclaimed uncaught_exception mine: thrown\nwent on\n",
    );
  });

  it("one nobody claims is fatal, as Node's own handling would be", () => {
    const run = spawnSync(process.execPath, [JITI_CLI, script(`Promise.reject(new Error("theirs"));\nsetTimeout(() => console.log("went on"), 20);`)], { encoding: "utf8" });
    expect(run).toMatchObject({ status: 1, stdout: "fatal unhandled_rejection theirs\n" });
  });
});
