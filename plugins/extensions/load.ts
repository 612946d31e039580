/**
 * Loads one extension: import the file, call its default export with a fresh `pi`, and apply what
 * it registered once it has finished. A file that does not import, exports no function, throws or
 * rejects is reported (`extension_error`, event "load") and leaves nothing registered; the next
 * extension loads regardless.
 *
 * There is no fixed deadline: a first import of a large TypeScript package transpiles every file
 * (tens of seconds on a busy machine), and a busy machine must make startup slower, never
 * different. While an extension takes long, a line on stderr says which and what it is doing; one
 * that is still not done after the limit (`extensionLoadTimeout`, default 10 minutes: a hung
 * factory) is reported and skipped, and the agent goes on.
 */
import { performance } from "node:perf_hooks";
import { SlowNotices, watchSlow } from "../../kernel/index.js";
import { unlessStalled } from "../../lib/stall/index.js";
import type { ExtensionHost } from "./host.js";
import type { SharedModules } from "./load-module.js";
import { createPiApi } from "./pi-api.js";
import { ExtensionRecord, type ExtensionSource } from "./record.js";

/** How long one extension may take (import and factory) before it counts as hung: setting `extensionLoadTimeout` (seconds). */
export const DEFAULT_LOAD_LIMIT_MS = 600_000;
/** When a slow extension's progress lines come (ms since it began loading), then every minute. */
const NOTICE_MS = [5_000, 15_000, 30_000, 60_000] as const;

export async function loadExtension(host: ExtensionHost, modules: SharedModules, source: ExtensionSource, limitMs = DEFAULT_LOAD_LIMIT_MS): Promise<ExtensionRecord> {
  const record = new ExtensionRecord(source, host.records.length);
  host.records.push(record);
  const started = performance.now();
  /** What the factory threw, if it did: where in the file the report points. */
  let thrown: unknown;
  const fail = (message: string) => {
    record.loadMs = performance.now() - started;
    record.discard(message);
    host.report(record.path, "load", message, thrown);
    return record;
  };
  let phase: "importing" | "running its factory" = "importing";
  let transpiled = 0;
  const doing = () => (phase === "importing" && transpiled > 0 ? `importing, ${transpiled} files transpiled so far` : phase);
  const notices = new SlowNotices((seconds) => host.k.log.info(`Still loading extension ${source.path}: ${doing()} (${seconds} s)`), NOTICE_MS);
  const work = (async (): Promise<string | undefined> => {
    const imported = await modules.import(source.path, host, () => {
      transpiled++;
      notices.check();
    });
    if ("error" in imported) return imported.error;
    for (const name of imported.served) record.served.add(name);
    // Skipped while importing: its factory never runs (it would start what nobody will stop).
    if (record.error !== undefined) return undefined;
    phase = "running its factory";
    const pi = createPiApi(host, record);
    try {
      await host.enter(() => imported.factory(pi));
    } catch (error) {
      thrown = error;
      return `Extension ${source.path} failed while loading: ${error instanceof Error ? error.message : String(error)}`;
    }
    return undefined;
  })();
  // A factory awaiting what can only come after it returns (session_start, say) would otherwise
  // end the process in silence: nothing else is left running to wake it.
  const unlessHung = unlessStalled(work, () => {
    if (phase === "importing") modules.abandon(source.path);
    return `Extension ${source.path} never finished loading: its ${phase === "importing" ? "import" : "factory"} waits for something that cannot happen while it loads (nothing else was left running; an event such as session_start only comes after every extension has loaded). It is skipped.`;
  });
  let failure: string | undefined;
  try {
    failure = await watchSlow(unlessHung, {
      limitMs,
      noticeMs: [],
      notice: () => undefined,
      onLimit: () => {
        // The imports after it (this agent's next extensions, a sibling's) stop waiting for it.
        if (phase === "importing") modules.abandon(source.path);
        return new Error(
          `Extension ${source.path} did not finish loading within ${formatSeconds(limitMs)} (still ${doing()}); it is skipped. Raise extensionLoadTimeout (seconds) in settings.json to wait longer.`,
        );
      },
    });
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
  } finally {
    notices.stop();
  }
  if (failure !== undefined) return fail(failure);
  record.commit((error) => host.report(record.path, "load", error));
  record.loadMs = performance.now() - started;
  return record;
}

function formatSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
