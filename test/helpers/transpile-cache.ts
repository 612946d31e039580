/**
 * A transpile cache kept between test runs, for tests that load large TypeScript packages (the
 * pi extension corpus): a cold jiti transpile of one such package costs ~15 s of CPU, per agent
 * (Atomic, pi), per run. jiti checks every cached file against its source's hash and its own
 * version, so a stale entry is never used: keeping them is safe. The store sits beside the
 * pinned Node runtimes (`node_modules/.cache`), so `npm ci` starts it afresh.
 */
import { copyFileSync, type Dirent, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative, resolve, sep } from "node:path";

const REPO = resolve(import.meta.dirname, "../..");
const STORE = join(REPO, "node_modules/.cache/atomic-tests/transpile");

/** A copy being written into the store: never seeded, and its name is unique to the process. */
const PARTIAL = ".partial-";

interface CopyOptions {
  /** Overwrite what `to` holds already (else it stays). */
  replace: boolean;
  /** Only files written since this time (ms). */
  since?: number;
}

/**
 * Copies the files of `from` into `to`, safe while other test files (other processes) seed from
 * and keep into the same store: an entry is written to a partial file and renamed over, so a
 * reader sees the old entry or the new one, never a missing or half-written one; an entry that
 * goes while it is read is passed over.
 */
function copyEntries(from: string, to: string, options: CopyOptions): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(from, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  mkdirSync(to, { recursive: true, mode: 0o700 });
  for (const entry of entries) {
    if (entry.name.includes(PARTIAL)) continue;
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) {
      copyEntries(source, target, options);
      continue;
    }
    if (!entry.isFile() || (!options.replace && existsSync(target))) continue;
    try {
      if (options.since !== undefined && statSync(source).mtimeMs < options.since) continue;
      const partial = `${target}${PARTIAL}${process.pid}`;
      copyFileSync(source, partial);
      renameSync(partial, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
}

/** Copies the kept cache `name` into `folder` (what is there already stays). */
export function seedTranspileCache(name: string, folder: string): void {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  copyEntries(join(STORE, name), folder, { replace: false });
}

/** Keeps what `folder` gained for the next run. */
export function keepTranspileCache(name: string, folder: string): void {
  copyEntries(folder, join(STORE, name), { replace: false });
}

/**
 * Seeds `folder` from the kept cache `name` and returns what keeps it after use: the entries
 * jiti wrote since the seed (a new file, or one whose kept entry was stale: its source changed),
 * written over the kept ones, so an edited source is transpiled once, not at every run again.
 */
export function seededTranspileCache(name: string, folder: string): () => void {
  seedTranspileCache(name, folder);
  const seeded = Date.now();
  return () => copyEntries(folder, join(STORE, name), { replace: true, since: seeded });
}

/**
 * A file of this repository (test fixtures, examples, a dependency's examples), not a test's temp
 * file: those are outside it, or in a dot-folder at its root (`.atomic-test-sandbox`).
 */
const ofTheRepository = (path: string) => path.startsWith(REPO + sep) && !relative(REPO, path).startsWith(".");

/** The `-e` / `--extension` paths of a launch. */
const extensionPaths = (args: readonly string[]) => args.flatMap((arg, i) => ((arg === "-e" || arg === "--extension") && args[i + 1] !== undefined ? [args[i + 1]!] : []));

/** The `plugins` of the settings in `agentDir` (none when there are no settings). */
function settingsPlugins(agentDir: string): string[] {
  try {
    const plugins = (JSON.parse(readFileSync(join(agentDir, "settings.json"), "utf8")) as { plugins?: unknown }).plugins;
    return Array.isArray(plugins) ? plugins.filter((plugin): plugin is string => typeof plugin === "string") : [];
  } catch {
    return [];
  }
}

/**
 * For a CLI launched with `args` on `agentDir` that loads code of the repository (`-e` paths,
 * the settings' `plugins`, relative ones from `cwd`): its jiti cache seeded from the kept one, as
 * startAgent and startExtensionAgent do. Cold, each such process loads jiti's Babel and
 * transpiles its fixtures again, ~0.35 s of CPU. Not seeded when the cache folder exists already
 * (a helper seeded it, or the test prepared it). Returns what keeps the cache once the process has
 * stopped, when every source is a file of the repository (a test's temp files would only grow it).
 */
export function seedAgentTranspileCache(agentDir: string, args: readonly string[], cwd: string): (() => void) | undefined {
  const folder = join(agentDir, "cache", "jiti");
  const paths = [...extensionPaths(args), ...settingsPlugins(agentDir)].map((source) => (isAbsolute(source) ? source : resolve(cwd, source)));
  if (!paths.some(ofTheRepository) || existsSync(folder)) return undefined;
  const keep = seededTranspileCache("rpc-clients", folder);
  if (!paths.every(ofTheRepository)) return undefined;
  return () => {
    try {
      keep();
    } catch {
      // The agent dir went while it was copied (the test removed it): nothing to keep.
    }
  };
}

/**
 * The run's code cache for pi 1.6's processes (`NODE_COMPILE_CACHE`; pi enables Node's compile
 * cache itself, in `<TMPDIR>/node-compile-cache` by default, which a test's fresh TMPDIR makes
 * cold). Node keys each entry by its own version and the source's hash: sharing is safe. In the
 * run's temp root (test/helpers/temp-root.ts), as Atomic's own `ATOMIC_COMPILE_CACHE` is.
 */
export function piCompileCache(): string {
  return join(tmpdir(), "node-compile-cache");
}
