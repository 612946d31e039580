/**
 * Imports extension files with jiti (TypeScript without a build step), once per process scope:
 * every agent of the scope (a host and its siblings) gets the module the first one evaluated, and
 * runs its factory with its own `pi`. jiti's own module cache stays off (it is Node's, the whole
 * process's: two independent hosts must not share); this cache is the scope's. A file changed on
 * disk (size or mtime of the entry) is imported afresh for the agents opened after; a failed
 * import is tried again by the next agent. Imports run one at a time, each after a turn of the
 * event loop, so other agents' streams flow between them.
 *
 * Imports of pi's package names are served from virtual modules made once for the scope: what
 * needs the running agent (built-in tools, one-off LLM calls, the file mutation queue) finds it
 * through `current()`, the agent whose extension code is running (AsyncLocalStorage entered at
 * every call into extension code: import, factory, handlers, tools, commands, providers). Which
 * names each extension was served is recorded, so a test can prove the installed pi was never used.
 *
 * An extension's own DefaultResourceLoader imports through here too; one called from a module's
 * top-level code (while its import is in flight) imports at once instead of queueing behind it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { setImmediate as nextTurn } from "node:timers/promises";
import { loadJiti } from "../../lib/jiti-loader/index.js";
import { privatizeFiles, transpileCache } from "../../lib/private-dir/index.js";
import { addTypeboxValidators, createVirtualModules, type VirtualModules } from "./compat/modules.js";
import type { ExtensionHost } from "./host.js";
import type { ExtensionFactory } from "./types/api.js";

export type ImportResult = { factory: ExtensionFactory; served: ReadonlySet<string> } | { error: string };

type Jiti = ReturnType<typeof import("jiti")["createJiti"]>;

export class SharedModules {
  readonly #agentDir: string;
  readonly #version: () => Promise<string>;
  readonly #context = new AsyncLocalStorage<ExtensionHost>();
  /** Agents whose extensions are loaded now: the fallback when code runs outside any agent's call. */
  readonly #live = new Set<ExtensionHost>();
  readonly #imports = new Map<string, { stamp: string; result: Promise<ImportResult>; release: () => void }>();
  #queue: Promise<unknown> = Promise.resolve();
  #jiti: Jiti | undefined;
  /** Where the virtual module names asked for go: the import in flight (one at a time). */
  #served: Set<string> | undefined;
  /** Told of each file jiti transpiles (a cache miss) for the import in flight: its progress. */
  #onTranspile: (() => void) | undefined;
  /** Set inside an import in flight: a nested import (a loader called by module code) must not queue behind it. */
  readonly #importing = new AsyncLocalStorage<true>();
  /** jiti's transpile cache: the agent dir's private folder (never the shared temp dir), or off. */
  #cache: string | false | undefined;
  readonly #swept = new Set<string>();
  /** Evaluations so far (tests, diagnostics). */
  evaluations = 0;

  constructor(agentDir: string, version: () => Promise<string>) {
    this.#agentDir = agentDir;
    this.#version = version;
  }

  /** Runs `work` as `host`'s extension code: what the virtual modules bind to while it runs. */
  enter<T>(host: ExtensionHost, work: () => T): T {
    return this.#context.run(host, work);
  }

  attach(host: ExtensionHost): void {
    this.#live.add(host);
  }

  detach(host: ExtensionHost): void {
    this.#live.delete(host);
  }

  /** The agent whose extension code is running; alone in the scope, the only one. */
  current(what: string): ExtensionHost {
    const host = this.#context.getStore();
    if (host) return host;
    if (this.#live.size === 1) return this.#live.values().next().value!;
    throw new Error(`${what} was called outside an extension's handler, tool or command while ${this.#live.size} agents share this process: call it from one of those`);
  }

  /**
   * The module of `path` for `host` (imported now, or the one another agent of the scope imported).
   * `onTranspile` is called for each file transpiled if this call imports (synchronously, while the
   * import blocks the event loop). Never throws.
   */
  async import(path: string, host: ExtensionHost, onTranspile?: () => void): Promise<ImportResult> {
    const stamp = await stat(path).then(
      (stats) => `${stats.size}:${stats.mtimeMs}`,
      () => "",
    );
    const cached = this.#imports.get(path);
    if (cached && cached.stamp === stamp) return cached.result;
    const work = () => this.#importNow(path, host, onTranspile);
    const { result, release } = this.#importing.getStore() ? { result: work(), release: () => undefined } : this.#enqueue(work);
    const entry = { stamp, result, release };
    this.#imports.set(path, entry);
    void result.then((done) => {
      if ("error" in done && this.#imports.get(path) === entry) this.#imports.delete(path);
    });
    return result;
  }

  /**
   * Lets the imports queued after `path`'s go ahead while it is still in flight: its loader gave
   * up on it (a hung import). It stays the scope's module of `path`, settled or not.
   */
  abandon(path: string): void {
    this.#imports.get(path)?.release();
  }

  #enqueue<T>(work: () => Promise<T>): { result: Promise<T>; release: () => void } {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const result = this.#queue.then(work, work);
    this.#queue = Promise.race([result.catch(() => undefined), released]);
    return { result, release };
  }

  async #importNow(path: string, host: ExtensionHost, onTranspile: (() => void) | undefined): Promise<ImportResult> {
    // A turn of the event loop first: what other agents stream goes out between two imports.
    if (!this.#importing.getStore()) await nextTurn();
    const jiti = await this.#loader();
    const served = new Set<string>();
    const outer = { served: this.#served, onTranspile: this.#onTranspile };
    let mod: unknown;
    this.#served = served;
    this.#onTranspile = onTranspile;
    try {
      this.evaluations++;
      mod = await this.#importing.run(true, () => this.enter(host, () => jiti.import(path)));
    } catch (error) {
      return { error: `Cannot load extension ${path}: ${error instanceof Error ? error.message : String(error)}` };
    } finally {
      // An abandoned import may end after later ones began: it leaves theirs alone.
      if (this.#served === served) this.#served = outer.served;
      if (this.#onTranspile === onTranspile) this.#onTranspile = outer.onTranspile;
      if (this.#cache) privatizeFiles(this.#cache, this.#swept);
    }
    const factory = (mod as { default?: unknown } | undefined)?.default ?? mod;
    if (typeof factory !== "function") {
      return { error: `Extension ${path} must default-export a function (pi: ExtensionAPI) => void; it exports ${describe(mod)}` };
    }
    return { factory: factory as ExtensionFactory, served };
  }

  async #loader(): Promise<Jiti> {
    if (this.#jiti) return this.#jiti;
    const importFactory = (path: string) => {
      try {
        return this.import(path, this.current("DefaultResourceLoader.reload()"));
      } catch (error) {
        return Promise.resolve({ error: error instanceof Error ? error.message : String(error) });
      }
    };
    const [version, { createJiti }] = await Promise.all([this.#version(), loadJiti()]);
    const modules = createVirtualModules((what) => this.current(what), this.#agentDir, version, importFactory);
    if (this.#jiti) return this.#jiti;
    this.#cache = transpileCache(this.#agentDir);
    const jiti = createJiti(import.meta.url, { moduleCache: false, fsCache: this.#cache, interopDefault: true, virtualModules: this.#noting(modules) });
    // jiti calls its transform only on a cache miss, and every jiti it makes for nested files
    // shares these options: the one place a cold import's progress can be seen.
    const transform = jiti.options.transform!;
    jiti.options.transform = (options) => {
      this.#onTranspile?.();
      return transform(options);
    };
    // Node's own require of an ES module where it has one (Node >= 20.19): jiti would transpile TypeBox's 700 files.
    const native = (process.features as { require_module?: boolean }).require_module === true;
    addTypeboxValidators(modules, (file) => (native ? createRequire(import.meta.url)(file) : jiti(file)) as Record<string, unknown>);
    this.#jiti = jiti;
    return jiti;
  }

  /** The virtual modules, noting each name jiti looks up for the import in flight. */
  #noting(modules: VirtualModules): VirtualModules {
    return new Proxy(modules, {
      get: (target, key) => {
        if (typeof key === "string" && Object.hasOwn(target, key)) this.#served?.add(key);
        return Reflect.get(target, key);
      },
    });
  }
}

/** What a module that has no default-exported function exports, and how to fix it. */
function describe(mod: unknown): string {
  if (mod === undefined || mod === null) return "nothing";
  if (typeof mod !== "object") return `a ${typeof mod}`;
  // jiti's interopDefault answers `.default` even without a default export (an object of the named
  // ones): only an own "default" key is one.
  const keys = Object.keys(mod).filter((key) => key !== "__esModule");
  if (keys.length === 0) return "nothing";
  if (keys.includes("default")) {
    const value = (mod as { default?: unknown }).default;
    return `a default ${value === null ? "null" : typeof value}`;
  }
  const functions = keys.filter((key) => typeof (mod as Record<string, unknown>)[key] === "function");
  const hint = functions.length > 0 ? `; to load ${functions[0]}, write \`export default function ${functions[0]}(pi) {...}\`` : "";
  return `no default, only named exports (${keys.slice(0, 5).join(", ")}${keys.length > 5 ? ", ..." : ""})${hint}`;
}
