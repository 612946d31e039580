/**
 * How a `*.via-server.e2e.test.ts` file runs a suite through a server: `await throughServer(() =>
 * import("./<suite>.e2e.test.js?through-server" as string))`. A worker runs many files in turn (the
 * e2e project is not isolated) and evaluates a module once: the query makes this file's copy of the
 * suite a module of its own, so the suite registers its tests here and in its own file, whichever
 * runs first (`as string` keeps TypeScript from resolving the query as a file name). The mode is
 * on while the suite registers its tests (some skip themselves through a server) and while they
 * run, and off after the file; a side effect of importing this module would happen once a worker.
 */
import { afterAll } from "vitest";
import { setViaServer } from "./via-server.js";

export async function throughServer(importSuite: () => Promise<unknown>): Promise<void> {
  setViaServer(true);
  afterAll(() => setViaServer(false));
  await importSuite();
}
