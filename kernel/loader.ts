/**
 * One loader for every plugin. Built-in names (`transport-rpc`) resolve to compiled modules
 * imported natively (jiti's native path: no transpiler is loaded); paths (`./my-plugin.ts`)
 * go through full jiti, loaded lazily, with its filesystem cache on.
 */
import { isAbsolute, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ErrorCode, KernelError, kernelErrors } from "./errors.js";
import { isPluginDefinition, type PluginDefinition } from "./plugin.js";

export interface LoaderOptions {
  /** Directory holding built-in plugin folders (`<dir>/<name>/index.js`). */
  builtinDir: string;
  /** Relative plugin paths resolve against this directory. */
  baseDir: string;
  /** Module aliases for user code (e.g. the kernel's public entry); a function is called only if user code is transpiled. */
  aliases?: Record<string, string> | (() => Record<string, string>);
  /** Built-ins already known to the host (compiled in): name -> native import. Checked before `builtinDir`. */
  builtins?: Record<string, () => Promise<unknown>>;
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
    const path = builtin ? join(this.#options.builtinDir, spec, "index.js") : this.#resolvePath(spec);
    const known = builtin ? this.#options.builtins?.[spec] : undefined;
    let mod: unknown;
    try {
      if (known) mod = await known();
      else {
        const importer = builtin || /\.(m?js|cjs)$/.test(path) ? await this.#nativeImporter() : await this.#transpilingImporter();
        mod = await importer(builtin ? pathToFileURL(path).href : path);
      }
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new KernelError(ErrorCode.PLUGIN_LOAD, `Cannot load plugin "${spec}" (${path}): ${detail}`, { plugin: spec, cause: error });
    }
    const candidate = (mod as { default?: unknown })?.default ?? mod;
    if (!isPluginDefinition(candidate)) {
      throw new KernelError(
        ErrorCode.PLUGIN_INVALID,
        `Plugin "${spec}" (${path}) must default-export definePlugin({ name, apply })`,
        { plugin: spec },
      );
    }
    return candidate;
  }

  async loadAll(specs: string[]): Promise<PluginDefinition[]> {
    return Promise.all(specs.map((spec) => this.load(spec)));
  }

  #resolvePath(spec: string): string {
    const expanded = spec.startsWith("~/") ? join(process.env.HOME ?? "", spec.slice(2)) : spec;
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
      const { createJiti } = await import("jiti");
      const jiti = createJiti(import.meta.url, {
        fsCache: true,
        moduleCache: true,
        interopDefault: true,
        alias: typeof this.#options.aliases === "function" ? this.#options.aliases() : (this.#options.aliases ?? {}),
      });
      this.#transpiling = (specifier) => jiti.import(specifier);
    }
    return this.#transpiling;
  }
}

/** Orders plugins so each comes after its dependencies; otherwise the given order is kept. */
export function orderPlugins(plugins: PluginDefinition[]): PluginDefinition[] {
  const byName = new Map<string, PluginDefinition>();
  for (const plugin of plugins) {
    if (byName.has(plugin.name)) throw kernelErrors.duplicate("Plugin", plugin.name, plugin.name);
    byName.set(plugin.name, plugin);
  }
  const ordered: PluginDefinition[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (plugin: PluginDefinition, chain: string[]): void => {
    const mark = state.get(plugin.name);
    if (mark === "done") return;
    if (mark === "visiting") {
      throw new KernelError(ErrorCode.PLUGIN_CYCLE, `Plugin dependency cycle: ${[...chain, plugin.name].join(" -> ")}`, { plugin: plugin.name });
    }
    state.set(plugin.name, "visiting");
    for (const dependency of plugin.dependsOn ?? []) {
      const target = byName.get(dependency);
      if (!target) throw kernelErrors.missingDependency(plugin.name, dependency);
      visit(target, [...chain, plugin.name]);
    }
    state.set(plugin.name, "done");
    ordered.push(plugin);
  };
  for (const plugin of plugins) visit(plugin, []);
  return ordered;
}
