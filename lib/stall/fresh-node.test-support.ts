/** Runs a script in a fresh Node (a stall is the whole process running dry, which a test worker never does); its stdout. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const JITI_CLI = join(import.meta.dirname, "../../node_modules/jiti/lib/jiti-cli.mjs");

/** `script` may import TypeScript sources by absolute path (jiti runs it). */
export function inFreshNode(script: string): string {
  const dir = mkdtempSync(join(tmpdir(), "atomic-stall-"));
  try {
    const file = join(dir, "script.ts");
    writeFileSync(file, script);
    return execFileSync(process.execPath, [JITI_CLI, file], { encoding: "utf8" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
