/**
 * One loader for every plugin. Built-in names (`transport-rpc`) resolve to compiled modules
 * imported natively (jiti's native path: no transpiler is loaded); paths (`./my-plugin.ts`)
 * go through full jiti, loaded lazily, with its filesystem cache in a private folder (never the
 * shared temp dir: a file planted there would run as the plugin, docs/reliability.md).
 */
import { isAbsolute, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ErrorCode, expandHome, isPluginDefinition, KernelError, type PluginDefinition } from "../kernel/index.js";
import { loadJiti } from "../lib/jiti-loader/index.js";
import { privatizeFiles, transpileCache } from "../lib/private-dir/index.js";

export interface LoaderOptions {
  /** Directory holding built-in plugin folders (`<dir>/<name>/index.js`); without it, names resolve through `builtins` only. */
  builtinDir?: string;
  /** Relative plugin paths resolve against this directory. */
  baseDir: string;
  /** Module aliases for user code (e.g. the kernel's public entry); a function is called only if user code is transpiled. */
  aliases?: Record<string, string> | (() => Record<string, string>);
  /** Built-ins already known to the host (compiled in): name -> native import. Checked before `builtinDir`. */
  builtins?: Record<string, () => Promise<unknown>>;
  /** The agent dir whose private `cache/jiti` holds transpiled plugins (default: `baseDir`). */
  cacheRoot?: string;
}

const BUILTIN_NAME = /^[a-z0-9][a-z0-9-]*$/;

type Importer = (specifier: string) => Promise<unknown>;

export function isBuiltinSpec(spec: string): boolean {
  return BUILTIN_NAME.test(spec);
}

export class PluginLoader {
  readonly #options: LoaderOptions;
  #native: Importer | undefined;
  #transpiling: Importer | undefined;

  constructor(options: LoaderOptions) {
    this.#options = options;
  }

  async load(spec: string): Promise<PluginDefinition> {
    const builtin = isBuiltinSpec(spec);
    const known = builtin ? this.#options.builtins?.[spec] : undefined;
    if (builtin && !known && !this.#options.builtinDir) {
      throw new KernelError(ErrorCode.PLUGIN_LOAD, `Unknown built-in plugin "${spec}" (known: ${Object.keys(this.#options.builtins ?? {}).join(", ") || "none"})`, {
        plugin: spec,
      });
    }
    const path = builtin ? join(this.#options.builtinDir ?? "", spec, "index.js") : this.#resolvePath(spec);
    let mod: unknown;
    try {
      if (known) mod = await known();
      else if (builtin) mod = await (await this.#nativeImporter())(pathToFileURL(path).href);
      else if (/\.(m?js|cjs)$/.test(path)) {
        try {
          // Node's own import: its errors name the missing package (jiti's native wrapper names only the file).
          mod = await import(pathToFileURL(path).href);
        } catch (error) {
          // A compiled plugin outside any package that installs `atomic-agent` or `zod` (a loose
          // file in ~/.atomic): the same aliases a .ts plugin gets resolve its imports.
          if (!isMissingPackage(error)) throw error;
          mod = await (await this.#transpilingImporter())(path);
        }
      } else mod = await (await this.#transpilingImporter())(path);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new KernelError(ErrorCode.PLUGIN_LOAD, `Cannot load plugin "${spec}" (${path}): ${detail}`, { plugin: spec, cause: error });
    }
    const candidate = (mod as { default?: unknown })?.default ?? mod;
    if (!isPluginDefinition(candidate)) {
      throw new KernelError(ErrorCode.PLUGIN_INVALID, `Plugin "${spec}" (${path}) must default-export definePlugin({ name, apply })`, { plugin: spec });
    }
    return candidate;
  }

  async loadAll(specs: string[]): Promise<PluginDefinition[]> {
    return Promise.all(specs.map((spec) => this.load(spec)));
  }

  #resolvePath(spec: string): string {
    const expanded = expandHome(spec);
    return isAbsolute(expanded) ? expanded : resolve(this.#options.baseDir, expanded);
  }

  async #nativeImporter(): Promise<Importer> {
    if (!this.#native) {
      const { createJiti } = await import("jiti/native");
      const jiti = createJiti(import.meta.url);
      this.#native = (specifier) => jiti.import(specifier);
    }
    return this.#native;
  }

  async #transpilingImporter(): Promise<Importer> {
    if (!this.#transpiling) {
      const { createJiti } = await loadJiti();
      const fsCache = transpileCache(this.#options.cacheRoot ?? this.#options.baseDir);
      const jiti = createJiti(import.meta.url, {
        fsCache,
        moduleCache: true,
        interopDefault: true,
        alias: typeof this.#options.aliases === "function" ? this.#options.aliases() : (this.#options.aliases ?? {}),
      });
      const swept = new Set<string>();
      this.#transpiling = async (specifier) => {
        try {
          return await jiti.import(specifier);
        } finally {
          if (fsCache) privatizeFiles(fsCache, swept);
        }
      };
    }
    return this.#transpiling;
  }
}

function isMissingPackage(error: unknown): boolean {
  return (error as { code?: unknown })?.code === "ERR_MODULE_NOT_FOUND" && /Cannot find package/.test(String((error as Error).message));
}

/**
 * What user code transpiled by jiti imports as `atomic-agent` (and its subpaths) resolves to:
 * this package's own modules, whatever the user's folder has installed. `root` holds the
 * compiled package (`dist/`), or the sources (`ext` ".ts") when running from the repository.
 */
export function packageAliases(root: string, zodDir: string, ext: ".js" | ".ts" = ".js"): Record<string, string> {
  return {
    "atomic-agent": join(root, `index${ext}`),
    "atomic-agent/host": join(root, "host", `index${ext}`),
    "atomic-agent/plugins": join(root, "plugins", `index${ext}`),
    zod: zodDir,
  };
}
