/**
 * Starting a worker thread from a module of this package. Built code runs the compiled `.js`
 * file natively. Run from the TypeScript sources (the unit tests), the `.ts` sibling is loaded
 * through jiti inside the worker, so tests exercise the same worker code the CLI runs.
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { Worker, WorkerOptions } from "node:worker_threads";

/** Made on first use: most processes start no worker. */
let ownRequire: NodeJS.Require | undefined;
const require = (id: string): unknown => (ownRequire ??= createRequire(import.meta.url))(id);
const resolveHere = (id: string): string => (ownRequire ??= createRequire(import.meta.url)).resolve(id);

/** This file's own extension tells whether the package runs compiled or from its sources. */
const fromSources = (): boolean => import.meta.url.endsWith(".ts");

/**
 * Runs in the worker when loading from sources (this repository's unit tests only; the built CLI
 * runs its compiled workers): jiti transpiles the entry and what it imports, caching the result
 * in jiti's default folder.
 */
const SOURCE_BOOTSTRAP = `
const { workerData } = require("node:worker_threads");
const { createJiti } = require(workerData.atomicWorkerJiti);
createJiti(workerData.atomicWorkerEntry, { fsCache: true }).import(workerData.atomicWorkerEntry);
`;

/**
 * A worker running `moduleUrl`, written as `new URL("./x.js", import.meta.url)` at the call site
 * (the bundler keeps such URLs pointing at the compiled file, see scripts/bundle.mjs).
 */
export function startModuleWorker(moduleUrl: URL, options: WorkerOptions = {}): Worker {
  // Required on first use, not imported: most processes start no worker, and loading
  // node:worker_threads would cost every startup.
  const { Worker } = require("node:worker_threads") as typeof import("node:worker_threads");
  if (!fromSources()) return new Worker(moduleUrl, options);
  const entry = fileURLToPath(moduleUrl).replace(/\.js$/, ".ts");
  const jiti = resolveHere("jiti");
  const workerData = { ...(options.workerData as object | undefined), atomicWorkerEntry: entry, atomicWorkerJiti: jiti };
  return new Worker(SOURCE_BOOTSTRAP, { ...options, eval: true, workerData });
}
