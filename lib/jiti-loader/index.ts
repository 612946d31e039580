/**
 * jiti (TypeScript without a build step), loaded on first use: by the extension loader and by the
 * host's loader of `.ts` plugins. Required, not imported: an ES import of jiti's CommonJS build
 * sets up Node's ES module loader and scans its 190 KB for exports (~30 ms more). The CLI bundle
 * replaces this module's body (scripts/bundle.mjs, `bundledJiti`): there jiti is a chunk of the
 * bundle loaded on first use, whose compiled code the launcher's code cache keeps, instead of a
 * package Node's CommonJS loader compiles again at every start (~11 ms on Node 20).
 */
import { createRequire } from "node:module";

export type JitiModule = typeof import("jiti");

export async function loadJiti(): Promise<JitiModule> {
  return createRequire(import.meta.url)("jiti") as JitiModule;
}
