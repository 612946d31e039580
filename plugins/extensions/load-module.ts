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
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { setImmediate as nextTurn } from "node:timers/promises";
import { privatizeFiles, transpileCache } from "../../lib/private-dir/index.js";
import { createVirtualModules, type VirtualModules } from "./compat/modules.js";
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
  readonly #imports = new Map<string, { stamp: string; result: Promise<ImportResult> }>();
  #queue: Promise<unknown> = Promise.resolve();
  #jiti: Jiti | undefined;
  /** Where the virtual module names asked for go: the import in flight (one at a time). */
  #served: Set<string> | undefined;
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

  /** The module of `path` for `host` (imported now, or the one another agent of the scope imported). Never throws. */
  async import(path: string, host: ExtensionHost): Promise<ImportResult> {
    const stamp = await stat(path).then(
      (stats) => `${stats.size}:${stats.mtimeMs}`,
      () => "",
    );
    const cached = this.#imports.get(path);
    if (cached && cached.stamp === stamp) return cached.result;
    const result = this.#enqueue(() => this.#importNow(path, host));
    const entry = { stamp, result };
    this.#imports.set(path, entry);
    void result.then((done) => {
      if ("error" in done && this.#imports.get(path) === entry) this.#imports.delete(path);
    });
    return result;
  }

  #enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #importNow(path: string, host: ExtensionHost): Promise<ImportResult> {
    // A turn of the event loop first: what other agents stream goes out between two imports.
    await nextTurn();
    const jiti = await this.#loader();
    const served = new Set<string>();
    let mod: unknown;
    this.#served = served;
    try {
      this.evaluations++;
      mod = await this.enter(host, () => jiti.import(path));
    } catch (error) {
      return { error: `Cannot load extension ${path}: ${error instanceof Error ? error.message : String(error)}` };
    } finally {
      this.#served = undefined;
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
    const modules = createVirtualModules((what) => this.current(what), this.#agentDir, await this.#version());
    if (this.#jiti) return this.#jiti;
    // require, not import: importing jiti's CommonJS build from ESM first scans its 190 KB for exports.
    const { createJiti } = createRequire(import.meta.url)("jiti") as typeof import("jiti");
    this.#cache = transpileCache(this.#agentDir);
    this.#jiti = createJiti(import.meta.url, { moduleCache: false, fsCache: this.#cache, interopDefault: true, virtualModules: this.#noting(modules) });
    return this.#jiti;
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

function describe(mod: unknown): string {
  if (mod === undefined || mod === null) return "nothing";
  if (typeof mod !== "object") return `a ${typeof mod}`;
  const keys = Object.keys(mod).filter((key) => key !== "__esModule");
  if (keys.length === 0) return "nothing";
  const value = (mod as { default?: unknown }).default;
  return value !== undefined ? `a default ${value === null ? "null" : typeof value}` : `only named exports (${keys.slice(0, 5).join(", ")})`;
}
