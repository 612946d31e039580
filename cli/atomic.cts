#!/usr/bin/env node
/**
 * The `atomic` executable. CommonJS on purpose: it loads the bundled CLI through the code cache
 * (compile-cache.cts), which only works for scripts; the unbundled build (no `bundle/`) runs
 * `main.js` directly.
 */
import os = require("node:os");
import path = require("node:path");
import compileCache = require("./compile-cache.cjs");

type BundleEntry = NonNullable<ReturnType<typeof compileCache.loadBundle>>["entry"];

function fail(error: unknown): never {
  process.stderr.write(`atomic: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
}

async function run(): Promise<number> {
  const bundle = compileCache.loadBundle(path.join(__dirname, "bundle"), compileCache.compileCacheRoot(process.env, os.homedir()));
  const entry: BundleEntry = bundle?.entry ?? ((await import("./main.js")) as BundleEntry);
  return entry.main(process.argv.slice(2), { onServe: () => bundle?.persistOnExit(), onSettled: () => bundle?.persistNow() });
}

run().then((code) => process.exit(code), fail);
