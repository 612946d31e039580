/**
 * Imports extension files with jiti (TypeScript without a build step; the module cache off, so
 * every load evaluates the file afresh), one jiti for all of them (an instance per file cost
 * ~2.5 ms each). Imports of pi's package names are served from Atomic's virtual modules; which
 * names each extension was served is recorded, so a test can prove the installed pi was never
 * used. Never throws: a failure is returned as text.
 */
import { createRequire } from "node:module";
import { privatizeFiles, transpileCache } from "../../lib/private-dir/index.js";
import type { VirtualModules } from "./compat/modules.js";
import type { ExtensionFactory } from "./types/api.js";

export type ImportResult = { factory: ExtensionFactory } | { error: string };

type Jiti = ReturnType<typeof import("jiti")["createJiti"]>;

export class ExtensionImporter {
  #jiti: Jiti | undefined;
  readonly #modules: VirtualModules;
  /** Where the virtual module names asked for go: the extension being imported (imports run one at a time). */
  #served: Set<string> | undefined;
  /** Told of each file jiti transpiles (a cache miss) for the extension being imported: its progress. */
  #onTranspile: (() => void) | undefined;
  /** jiti's transpile cache: the agent dir's private folder (never the shared temp dir), or off. */
  readonly #agentDir: string;
  #cache: string | false | undefined;
  readonly #swept = new Set<string>();

  constructor(modules: VirtualModules, agentDir: string) {
    this.#modules = modules;
    this.#agentDir = agentDir;
  }

  /**
   * Imports `path`; every virtual module name it asked for is added to `served`; `onTranspile` is
   * called for each file transpiled (synchronously, while the import blocks the event loop). Not concurrent.
   */
  async import(path: string, served: Set<string>, onTranspile?: () => void): Promise<ImportResult> {
    let mod: unknown;
    this.#served = served;
    this.#onTranspile = onTranspile;
    try {
      mod = await this.#loader().import(path);
    } catch (error) {
      return { error: `Cannot load extension ${path}: ${error instanceof Error ? error.message : String(error)}` };
    } finally {
      if (this.#served === served) this.#served = undefined;
      if (this.#onTranspile === onTranspile) this.#onTranspile = undefined;
      if (this.#cache) privatizeFiles(this.#cache, this.#swept);
    }
    const factory = (mod as { default?: unknown } | undefined)?.default ?? mod;
    if (typeof factory !== "function") {
      return { error: `Extension ${path} must default-export a function (pi: ExtensionAPI) => void; it exports ${describe(mod)}` };
    }
    return { factory: factory as ExtensionFactory };
  }

  #loader(): Jiti {
    if (this.#jiti) return this.#jiti;
    // require, not import: importing jiti's CommonJS build from ESM first scans its 190 KB for exports.
    const { createJiti } = createRequire(import.meta.url)("jiti") as typeof import("jiti");
    // The virtual modules, noting each name jiti looks up for the extension being imported.
    const virtualModules = new Proxy(this.#modules, {
      get: (target, key) => {
        if (typeof key === "string" && Object.hasOwn(target, key)) this.#served?.add(key);
        return Reflect.get(target, key);
      },
    });
    this.#cache = transpileCache(this.#agentDir);
    const jiti = createJiti(import.meta.url, { moduleCache: false, fsCache: this.#cache, interopDefault: true, virtualModules });
    // jiti calls its transform only on a cache miss, and every jiti it makes for nested files
    // shares these options: the one place a cold import's progress can be seen.
    const transform = jiti.options.transform!;
    jiti.options.transform = (options) => {
      this.#onTranspile?.();
      return transform(options);
    };
    this.#jiti = jiti;
    return jiti;
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
