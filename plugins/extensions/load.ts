/**
 * Loads one extension: import the file, call its default export with a fresh `pi`, and apply what
 * it registered once it has finished. A file that does not import, exports no function, throws,
 * rejects or takes too long is reported (`extension_error`, event "load") and leaves nothing
 * registered; the next extension loads regardless.
 */
import { performance } from "node:perf_hooks";
import type { ExtensionHost } from "./host.js";
import type { SharedModules } from "./load-module.js";
import { createPiApi } from "./pi-api.js";
import { ExtensionRecord, type ExtensionSource } from "./record.js";

/** How long a factory may run (an async one may fetch something) before its load fails. */
export const LOAD_TIMEOUT_MS = 5_000;

/**
 * `deadline` (Date.now() time): when all loading's time is up. Importing the file must end by
 * then (a first import of a large TypeScript package transpiles every file, tens of seconds on a
 * slow machine: past the deadline this extension fails to load instead of the whole boot, and
 * the import goes on in the background so jiti's cache is warm for the next start); the factory
 * gets `LOAD_TIMEOUT_MS`, or what is left.
 */
export async function loadExtension(host: ExtensionHost, modules: SharedModules, source: ExtensionSource, deadline = Date.now() + LOAD_TIMEOUT_MS): Promise<ExtensionRecord> {
  const record = new ExtensionRecord(source, host.records.length);
  host.records.push(record);
  const started = performance.now();
  const fail = (message: string) => {
    record.loadMs = performance.now() - started;
    record.discard(message);
    host.report(record.path, "load", message);
    return record;
  };
  const imported = await withinBudget(modules.import(source.path, host), Math.max(1, deadline - Date.now()), source.path);
  if ("error" in imported) return fail(imported.error);
  for (const name of imported.served) record.served.add(name);
  const timeoutMs = Math.max(1, Math.min(LOAD_TIMEOUT_MS, deadline - Date.now()));
  const pi = createPiApi(host, record);
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`did not finish loading within ${timeoutMs / 1000} s`)), timeoutMs);
      timer.unref();
    });
    await Promise.race([Promise.resolve().then(() => host.enter(() => imported.factory(pi))), timeout]);
  } catch (error) {
    return fail(`Extension ${source.path} failed while loading: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    clearTimeout(timer);
  }
  record.commit((error) => host.report(record.path, "load", error));
  record.loadMs = performance.now() - started;
  return record;
}

function withinBudget<T>(work: Promise<T | { error: string }>, budgetMs: number, path: string): Promise<T | { error: string }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<{ error: string }>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          error: `Extension ${path} did not finish importing within the ${Math.round(budgetMs / 100) / 10} s left for loading extensions (a first import transpiles its files; they are cached for the next start)`,
        }),
      budgetMs,
    );
    timer.unref();
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
