/**
 * Temp folders for tests that remove themselves: every folder made here, and every process
 * registered here, is cleaned up after the test file (processes are killed first, so a late
 * write cannot recreate a removed folder; test/setup.ts runs the cleanup).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const removals: Array<() => void> = [];
const stoppers = new Set<() => Promise<unknown>>();
let agentTmp: string | undefined;

/**
 * Stops what this test file registered, then removes its folders. test/setup.ts runs it after
 * every file: a hook registered here would run once per worker, since a worker that runs several
 * files (the unit project, not isolated) imports this module once.
 */
export async function cleanUpAfterFile(): Promise<void> {
  await Promise.all([...stoppers].map((stop) => stop().catch(() => undefined)));
  stoppers.clear();
  agentTmp = undefined;
  for (const remove of removals.splice(0)) remove();
}

/** Runs `remove` after this test file, once the processes registered here are stopped. */
export function removeAfterFile(remove: () => void): void {
  removals.push(remove);
}

/** A fresh folder under the temp dir, removed after this test file. */
export function tempDir(prefix = "atomic-test-"): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  removeAfterFile(() => rmSync(folder, { recursive: true, force: true }));
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
