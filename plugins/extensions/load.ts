/**
 * Loads one extension: import the file, call its default export with a fresh `pi`, and apply what
 * it registered once it has finished. A file that does not import, exports no function, throws,
 * rejects or takes too long is reported (`extension_error`, event "load") and leaves nothing
 * registered; the next extension loads regardless.
 */
import { performance } from "node:perf_hooks";
import type { ExtensionHost } from "./host.js";
import type { ExtensionImporter } from "./load-module.js";
import { createPiApi } from "./pi-api.js";
import { ExtensionRecord, type ExtensionSource } from "./record.js";

/** How long a factory may run (an async one may fetch something) before its load fails. */
export const LOAD_TIMEOUT_MS = 5_000;

export async function loadExtension(host: ExtensionHost, importer: ExtensionImporter, source: ExtensionSource, timeoutMs = LOAD_TIMEOUT_MS): Promise<ExtensionRecord> {
  const record = new ExtensionRecord(source, host.records.length);
  host.records.push(record);
  const started = performance.now();
  const fail = (message: string) => {
    record.loadMs = performance.now() - started;
    record.discard(message);
    host.report(record.path, "load", message);
    return record;
  };
  const imported = await importer.import(source.path, record.served);
  if ("error" in imported) return fail(imported.error);
  const pi = createPiApi(host, record);
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`did not finish loading within ${timeoutMs / 1000} s`)), timeoutMs);
      timer.unref();
    });
    await Promise.race([Promise.resolve().then(() => imported.factory(pi)), timeout]);
  } catch (error) {
    return fail(`Extension ${source.path} failed while loading: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    clearTimeout(timer);
  }
  record.commit((error) => host.report(record.path, "load", error));
  record.loadMs = performance.now() - started;
  return record;
}
