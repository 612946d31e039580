/**
 * Vitest global setup: the whole run gets its own temp root (TMPDIR for every worker and every
 * CLI the tests spawn), so concurrent runs cannot see each other's files and whatever a test
 * forgets is reported by name and then removed: a run leaves nothing in the system temp dir.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The run's shared code cache of the bundled CLI (cli/compile-cache.cts), in the temp root. */
const COMPILE_CACHE = "atomic-compile-cache";

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), "atomic-vitest-"));
  const previous = process.env.TMPDIR;
  const previousCompileCache = process.env.ATOMIC_COMPILE_CACHE;
  process.env.TMPDIR = root;
  // Every CLI a test spawns shares one code cache, as a user's processes share theirs: with a
  // fresh agent dir per test, each process would otherwise compile the bundle from source and
  // write a cache nobody reads (~80 ms of CPU per spawn, hundreds of spawns per run). The tests
  // of the cache's own folder rules unset it.
  process.env.ATOMIC_COMPILE_CACHE = join(root, COMPILE_CACHE);
  return function teardown(): void {
    // jiti's transpile cache (plugin loader, workers run from sources), the protocol schema
    // the e2e helpers generate once per plugin list and pi 1.6's compile cache
    // (test/helpers/transpile-cache.ts) are caches, not leaks.
    const caches = new Set(["jiti", "atomic-protocol-schema", COMPILE_CACHE, "node-compile-cache"]);
    const leftovers = readdirSync(root).filter((name) => !caches.has(name));
    if (leftovers.length > 0) {
      process.stderr.write(
        `[temp-root] ${leftovers.length} temp entr${leftovers.length === 1 ? "y was" : "ies were"} left behind by tests (removed now): ${summarize(leftovers)}\n`,
      );
    }
    rmSync(root, { recursive: true, force: true });
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    if (previousCompileCache === undefined) delete process.env.ATOMIC_COMPILE_CACHE;
    else process.env.ATOMIC_COMPILE_CACHE = previousCompileCache;
  };
}

/** `atomic-config-AbC123` x 5 -> `atomic-config-* x5`. */
function summarize(names: string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) {
    const prefix = name.replace(/[A-Za-z0-9]{6}$/, "*");
    counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
  }
  return [...counts].map(([prefix, count]) => (count > 1 ? `${prefix} x${count}` : prefix)).join(", ");
}
