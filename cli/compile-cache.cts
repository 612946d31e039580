/**
 * Loads the CLI's CommonJS bundle with V8's code cache: a fresh process otherwise parses and
 * compiles every function it runs, which is most of Atomic's own startup (Node 22's
 * `module.enableCompileCache()` does this for any module; Node 20 has only `vm.Script`'s
 * `cachedData`). Each bundle file is compiled with the bytecode a previous process left in the
 * cache folder; a file without one (first run, new build, other Node) is compiled from source and,
 * once the process has served, its bytecode (top level and every function it ran) is written for
 * the next process: a second after the first prompt settled, or at exit. The bundle's own
 * `require` and `import()` are routed here: chunks through this loader, everything else to Node's.
 *
 * V8 checks a cache against its own version, its flags, the source's length and the cache's own
 * checksum, not the source's text, so cache files are named after the bundle files, whose names
 * carry a content hash, inside a folder per bundle build, Node version, architecture and flags.
 */
import buffer = require("node:buffer");
import fs = require("node:fs");
import nodeModule = require("node:module");
import path = require("node:path");
import url = require("node:url");
import vm = require("node:vm");

const { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } = fs;
const { dirname, isAbsolute, join, resolve } = path;
const { pathToFileURL } = url;
const { isAscii } = buffer;
const { isBuiltin } = nodeModule;

/** A file in a cache folder: its bytecode was taken after a prompt settled. */
const SETTLED_MARK = "settled";

/** How long a cache folder of another build or Node stays before a writing process removes it. */
const STALE_CACHE_MS = 7 * 24 * 3600 * 1000;

/** What the bundle's entry exports. */
interface BundleEntry {
  main(argv: string[], options?: { onServe?: () => void; onSettled?: () => void }): Promise<number>;
}

interface LoadedBundle {
  entry: BundleEntry;
  /** The process serves: its compiled code is worth keeping, at exit at the latest. */
  persistOnExit(): void;
  /**
   * Writes what is missing now (soon after the first prompt settled: startup and the prompt path
   * are compiled, and V8 has not yet flushed the bytecode of functions idle in a long session).
   */
  persistNow(): void;
}

interface Chunk {
  exports: unknown;
  script: vm.Script;
  /** Its bytecode came from the cache or was written by this process. */
  cached: boolean;
}

/** `ATOMIC_COMPILE_CACHE`: a folder, or `off`; default `<agent dir>/cache/compile`. */
function compileCacheRoot(env: NodeJS.ProcessEnv, homeDir: string): string | undefined {
  const setting = env.ATOMIC_COMPILE_CACHE;
  if (setting === "off" || setting === "0") return undefined;
  if (setting) return resolve(setting);
  const agentDir = env.ATOMIC_CODING_AGENT_DIR;
  // The same rule as the kernel's resolveAgentDir (`~` expanded), without loading the kernel.
  const base = agentDir ? resolve(agentDir.replace(/^~(?=$|[\\/])/, homeDir)) : join(homeDir, ".atomic", "agent");
  return join(base, "cache", "compile");
}

/** FNV-1a, enough to tell flag sets apart in a folder name. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(36);
}

/**
 * The bundle in `bundleDir` (its `entry.json` names the entry file), or undefined when there is
 * none (running the unbundled build).
 */
function loadBundle(bundleDir: string, cacheRoot: string | undefined): LoadedBundle | undefined {
  let entryName: string;
  try {
    entryName = (JSON.parse(readFileSync(join(bundleDir, "entry.json"), "utf8")) as { main: string }).main;
  } catch {
    return undefined;
  }
  const flags = [...process.execArgv, process.env.NODE_OPTIONS ?? ""].join(" ").trim();
  const build = entryName.replace(/\.cjs$/, "");
  const cacheDir = cacheRoot && join(cacheRoot, `${build}-node${process.version}-${process.arch}${flags ? `-${shortHash(flags)}` : ""}`);
  const chunks = new Map<string, Chunk>();
  // Written after a prompt settled: the cache then covers the prompt path too. Without it (a
  // process that only answered commands wrote the cache at exit), the next process whose prompt
  // settles writes every file again.
  const complete = cacheDir !== undefined && readCache(join(cacheDir, SETTLED_MARK)) !== undefined;

  const load = (filename: string): unknown => {
    const known = chunks.get(filename);
    if (known) return known.exports;
    const source = readChunkSource(filename);
    const cachedData = cacheDir ? readCache(join(cacheDir, `${basenameOf(filename)}.bin`)) : undefined;
    const script = new vm.Script(source, {
      filename,
      ...(cachedData ? { cachedData } : {}),
    });
    const module = { exports: {} as unknown };
    const chunk: Chunk = { exports: module.exports, script, cached: cachedData !== undefined && !script.cachedDataRejected };
    chunks.set(filename, chunk);
    // A builtin resolves the same from anywhere; a package needs this file's own resolution
    // paths, which cost a few milliseconds to set up: only made for a chunk that asks for one.
    let packageRequire: NodeJS.Require | undefined;
    const nodeRequire = (id: string): unknown => (id.startsWith("node:") || isBuiltin(id) ? require(id) : (packageRequire ??= nodeModule.createRequire(filename))(id));
    const requireHere = (id: string): unknown => (id.endsWith(".cjs") && id.startsWith(".") ? load(join(dirname(filename), id)) : nodeRequire(id));
    const importHere = (specifier: string): Promise<unknown> => {
      // A Node builtin through require: the first import() of a process sets up the ES module
      // loader, several milliseconds on the way to a first token (node:http).
      if (specifier.startsWith("node:")) return Promise.resolve().then(() => builtinNamespace(nodeRequire(specifier)));
      return import(specifier.startsWith(".") ? pathToFileURL(join(dirname(filename), specifier)).href : isAbsolute(specifier) ? pathToFileURL(specifier).href : specifier);
    };
    const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
    wrapper.call(module.exports, module.exports, requireHere, module, filename, dirname(filename), importHere);
    chunk.exports = module.exports;
    return module.exports;
  };

  const entry = load(join(bundleDir, entryName)) as BundleEntry;
  let persisting = false;
  return {
    entry,
    persistOnExit() {
      if (!cacheDir || persisting) return;
      persisting = true;
      process.once("exit", () => writeCaches(cacheDir, chunks));
    },
    persistNow() {
      scratch = undefined;
      if (!cacheDir) return;
      if (!complete) for (const chunk of chunks.values()) chunk.cached = false;
      writeCaches(cacheDir, chunks, !complete);
    },
  };
}

/**
 * What `import("node:x")` gives: the builtin's exports by name, and itself as `default`. Each name
 * reads through to the builtin when used, never before: Node 22's `node:http` defines lazy
 * getters (`WebSocket`, `CloseEvent`, `MessageEvent`) that load all of undici (~50 ms of a first
 * request) when read, and copying the exports would read them all.
 */
function builtinNamespace(exports: unknown): unknown {
  const builtin = exports as Record<string, unknown>;
  const namespace: Record<string, unknown> = { default: exports };
  for (const name of Object.keys(builtin)) {
    if (name !== "default") Object.defineProperty(namespace, name, { enumerable: true, get: () => builtin[name] });
  }
  return Object.freeze(namespace);
}

function basenameOf(filename: string): string {
  return filename.slice(Math.max(filename.lastIndexOf("/"), filename.lastIndexOf("\\")) + 1);
}

/**
 * The memory every source and cache file is read into, reused: a fresh buffer per file costs a
 * page fault per 4 KB touched (~2 MB of sources and bytecode on the way to a first token), and a
 * page fault is far dearer than the copy (~13 us each on a virtual machine measured). Its bytes
 * are copied out (the source's string) or consumed (V8 deserialises `cachedData` inside
 * `new vm.Script`) before the next read; released once the process has served a prompt.
 */
let scratch: Buffer | undefined;

/** A chunk's source runs as the body of this function (what Node's own CommonJS loader does). */
const WRAPPER_HEAD = Buffer.from("(function (exports, require, module, __filename, __dirname, __atomicImport) {", "latin1");
const WRAPPER_TAIL = Buffer.from("\n})", "latin1");
const NO_BYTES = Buffer.alloc(0);

/** The file's bytes in `scratch` between `head` and `tail`: valid until the next read. */
function readIntoScratch(path: string, head = NO_BYTES, tail = NO_BYTES): Buffer {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const room = head.length + size + tail.length;
    // Room for the largest file in one allocation: pages are touched (and paid) only as read.
    if (!scratch || scratch.length < room) scratch = Buffer.allocUnsafeSlow(Math.max(room, 2 * 1024 * 1024));
    head.copy(scratch, 0);
    let length = head.length;
    while (length < head.length + size) {
      const read = readSync(fd, scratch, length, head.length + size - length, length - head.length);
      if (read === 0) break;
      length += read;
    }
    length += tail.copy(scratch, length);
    return scratch.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

/**
 * The chunk's source inside its function wrapper, as one flat string: a wrapper concatenated in
 * JavaScript is a rope V8 copies flat again before compiling. ASCII (what the bundler writes) is
 * read as Latin-1: the same text, without decoding UTF-8.
 */
function readWrappedSource(filename: string): string {
  const bytes = readIntoScratch(filename, WRAPPER_HEAD, WRAPPER_TAIL);
  return bytes.toString(isAscii(bytes) ? "latin1" : "utf8");
}

/** readWrappedSource, with a missing chunk named for what it almost always means. */
function readChunkSource(filename: string): string {
  try {
    return readWrappedSource(filename);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    // Chunks load on first use, so a long-running process (`atomic serve`) meets this after an
    // upgrade or a rebuild in place replaced its build's files.
    throw new Error(
      `Atomic's file ${filename} is gone: Atomic was updated or rebuilt while this process ran, and the build it started from no longer exists. Restart it (the new build is used then).`,
    );
  }
}

/** A cache file's bytes, valid until the next read (`new vm.Script` consumes them at once). */
function readCache(path: string): Buffer | undefined {
  try {
    return readIntoScratch(path);
  } catch {
    return undefined;
  }
}

/**
 * The bytecode of each chunk that had none, written whole or not at all. Synchronous: it also
 * runs at exit.
 */
function writeCaches(cacheDir: string, chunks: Map<string, Chunk>, markSettled = false): void {
  const missing = [...chunks].filter(([, chunk]) => !chunk.cached);
  if (missing.length === 0 && !markSettled) return;
  for (const [, chunk] of missing) chunk.cached = true;
  try {
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    for (const [filename, chunk] of missing) {
      const target = join(cacheDir, `${basenameOf(filename)}.bin`);
      const temporary = `${target}.${process.pid}.tmp`;
      // No fsync: a torn file fails V8's own checks (size, magic) and is written again.
      writeFileSync(temporary, chunk.script.createCachedData(), { mode: 0o600 });
      renameSync(temporary, target);
    }
    if (markSettled) writeFileSync(join(cacheDir, SETTLED_MARK), "", { mode: 0o600 });
    removeStaleSiblings(cacheDir);
  } catch {
    // A cache: a read-only or full disk costs the next start its speed, nothing else.
  }
}

function removeStaleSiblings(cacheDir: string): void {
  const root = dirname(cacheDir);
  const now = Date.now();
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    if (path === cacheDir) continue;
    if (now - statSync(path).mtimeMs > STALE_CACHE_MS) rmSync(path, { recursive: true, force: true });
  }
}

export = { compileCacheRoot, loadBundle };
