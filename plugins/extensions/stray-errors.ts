/**
 * An extension's stray failure (a promise it rejected and never handled, a throw from its timer):
 * reported as `extension_error` with the event `unhandled_rejection` / `uncaught_exception` (the
 * stderr line names the extension's line that threw), and the agent goes on. Claimed only when a
 * frame of the error's stack is in an extension's file (or its folder, as `thrownAt` reads it).
 */
import { thrownAt } from "../../kernel/index.js";
import { claimStrayErrors } from "../../lib/stray-errors/index.js";
import type { ExtensionHost } from "./host.js";

export function reportStrayErrors(host: ExtensionHost): () => void {
  return claimStrayErrors((error, kind) => {
    const where = host.records.map((record) => ({ record, at: thrownAt(error, record.path) })).filter((found) => found.at !== undefined);
    // The extension whose own file threw, before one that only shares its folder.
    const owner = where.find(({ record, at }) => at!.startsWith(`${record.path}:`)) ?? where[0];
    if (!owner) return false;
    host.report(owner.record.path, kind, error);
    return true;
  });
}
