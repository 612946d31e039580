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

// The process running dry before run() settled: something it awaits can never happen (a plugin or
// an extension awaiting a promise nobody settles). Without this it would end with exit code 0, the
// work half done; the parts that can recover (an extension's load, a tool, an extension's event
// handler) are answered first.
let settled = false;
let ranDry = false;
process.on("beforeExit", () => {
  if (settled) return;
  ranDry = true;
  process.exitCode = 1;
});
process.on("exit", (code) => {
  if (!settled && ranDry && code === 1)
    process.stderr.write(
      "atomic: stopped before finishing: what it was doing waits for something that cannot happen (nothing else was left running). A plugin or extension awaiting a promise nobody settles does this.\n",
    );
});
run().then(
  (code) => {
    settled = true;
    process.exit(code);
  },
  (error) => {
    settled = true;
    fail(error);
  },
);
