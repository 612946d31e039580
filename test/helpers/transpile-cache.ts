/**
 * A transpile cache kept between test runs, for tests that load large TypeScript packages (the
 * pi extension corpus): a cold jiti transpile of one such package costs ~15 s of CPU, per agent
 * (Atomic, pi), per run. jiti checks every cached file against its source's hash and its own
 * version, so a stale entry is never used: keeping them is safe. The store sits beside the
 * pinned Node runtimes (`node_modules/.cache`), so `npm ci` starts it afresh.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative, resolve, sep } from "node:path";

const REPO = resolve(import.meta.dirname, "../..");
const STORE = join(REPO, "node_modules/.cache/atomic-tests/transpile");

/** Copies the kept cache `name` into `folder` (what is there already stays). */
export function seedTranspileCache(name: string, folder: string): void {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const kept = join(STORE, name);
  if (existsSync(kept)) cpSync(kept, folder, { recursive: true, force: false, errorOnExist: false });
}

/** Keeps what `folder` gained for the next run. */
export function keepTranspileCache(name: string, folder: string): void {
  if (!existsSync(folder)) return;
  mkdirSync(join(STORE, name), { recursive: true, mode: 0o700 });
  cpSync(folder, join(STORE, name), { recursive: true, force: false, errorOnExist: false });
}

/**
 * Seeds `folder` from the kept cache `name` and returns what keeps it after use: the entries
 * jiti wrote since the seed (a new file, or one whose kept entry was stale: its source changed),
 * written over the kept ones, so an edited source is transpiled once, not at every run again.
 */
export function seededTranspileCache(name: string, folder: string): () => void {
  seedTranspileCache(name, folder);
  const seeded = Date.now();
  return () => {
    if (!existsSync(folder)) return;
    mkdirSync(join(STORE, name), { recursive: true, mode: 0o700 });
    const written = (source: string) => statSync(source).isDirectory() || statSync(source).mtimeMs >= seeded;
    cpSync(folder, join(STORE, name), { recursive: true, force: true, filter: written });
  };
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
