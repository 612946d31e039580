/**
 * An extension's stray failure (a promise it rejected and never handled, a throw from its timer):
 * reported as `extension_error` with the event `unhandled_rejection` / `uncaught_exception` and the
 * line of the extension it came from, and the agent goes on. Claimed only when a frame of the
 * error's stack is the extension's file (or its folder, outside Atomic's own install).
 */
import { dirname, sep } from "node:path";
import { claimStrayErrors, frameIn } from "../../lib/stray-errors/index.js";
import type { ExtensionHost } from "./host.js";

export function reportStrayErrors(host: ExtensionHost): () => void {
  const install = host.k.config.installDir;
  const inside = (file: string, folder: string) => file.startsWith(folder.endsWith(sep) ? folder : folder + sep);
  const ownerOf = (file: string) =>
    host.records.find((record) => record.path === file) ?? (install && inside(file, install) ? undefined : host.records.find((record) => inside(file, dirname(record.path))));
  return claimStrayErrors((error, kind) => {
    const where = frameIn(error, (file) => ownerOf(file) !== undefined);
    if (!where) return false;
    const owner = ownerOf(where.replace(/:\d+:\d+$/, ""))!;
    const message = error instanceof Error ? error.message : String(error);
    host.report(owner.path, kind, `${message} (at ${where})`);
    return true;
  });
}
