/**
 * Temp folders for tests that remove themselves: every folder made here, and every process
 * registered here, is cleaned up after the test file (processes are killed first, so a late
 * write cannot recreate a removed folder). Import it from a test file or a helper it imports.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

const folders: string[] = [];
const stoppers = new Set<() => Promise<unknown>>();
let agentTmp: string | undefined;

afterAll(async () => {
  await Promise.all([...stoppers].map((stop) => stop().catch(() => undefined)));
  stoppers.clear();
  agentTmp = undefined;
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A fresh folder under the temp dir, removed after this test file. */
export function tempDir(prefix = "atomic-test-"): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  folders.push(folder);
  return folder;
}

/** Runs `stop` after this test file, before the folders go (unless `unregister` was called). */
export function registerStopper(stop: () => Promise<unknown>): () => void {
  stoppers.add(stop);
  return () => stoppers.delete(stop);
}

/**
 * The TMPDIR of the agents this test file starts (the helpers that spawn the CLI set it): what an
 * agent keeps there by design, as a real user's would (a bash command's full output that a stored
 * session refers to, a package's own temp folder, a tool's compile cache), goes with the file's
 * folders instead of being reported as left behind by the run.
 */
export function agentTempDir(): string {
  return (agentTmp ??= tempDir("atomic-agent-tmp-"));
}
