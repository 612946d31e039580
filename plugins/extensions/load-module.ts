/**
 * Imports one extension file with jiti (TypeScript without a build step; the module cache off, so
 * every load evaluates the file afresh). Imports of pi's package names are served from Atomic's
 * virtual modules; which names were served is recorded, so a test can prove the installed pi was
 * never used. Never throws: a failure is returned as text.
 */
import { createRequire } from "node:module";
import type { VirtualModules } from "./compat/modules.js";
import type { ExtensionFactory } from "./types/api.js";

export type ImportResult = { factory: ExtensionFactory } | { error: string };

type CreateJiti = (typeof import("jiti"))["createJiti"];

export class ExtensionImporter {
  #createJiti: Promise<CreateJiti> | undefined;
  readonly #modules: VirtualModules;

  constructor(modules: VirtualModules) {
    this.#modules = modules;
  }

  /** Imports `path`; every virtual module name it asked for is added to `served`. */
  async import(path: string, served: Set<string>): Promise<ImportResult> {
    let mod: unknown;
    try {
      // require, not import: importing jiti's CommonJS build from ESM first scans its 190 KB for exports.
      const createJiti = await (this.#createJiti ??= Promise.resolve().then(() => (createRequire(import.meta.url)("jiti") as typeof import("jiti")).createJiti));
      const jiti = createJiti(path, {
        moduleCache: false,
        fsCache: true,
        interopDefault: true,
        virtualModules: recording(this.#modules, served),
      });
      mod = await jiti.import(path);
    } catch (error) {
      return { error: `Cannot load extension ${path}: ${error instanceof Error ? error.message : String(error)}` };
    }
    const factory = (mod as { default?: unknown } | undefined)?.default ?? mod;
    if (typeof factory !== "function") {
      return { error: `Extension ${path} must default-export a function (pi: ExtensionAPI) => void; it exports ${describe(mod)}` };
    }
    return { factory: factory as ExtensionFactory };
  }
}

/** The virtual modules, noting each name jiti looks up. */
function recording(modules: VirtualModules, served: Set<string>): Record<string, unknown> {
  return new Proxy(modules, {
    get(target, key) {
      if (typeof key === "string" && Object.hasOwn(target, key)) served.add(key);
      return Reflect.get(target, key);
    },
  });
}

function describe(mod: unknown): string {
  if (mod === undefined || mod === null) return "nothing";
  if (typeof mod !== "object") return `a ${typeof mod}`;
  const keys = Object.keys(mod).filter((key) => key !== "__esModule");
  if (keys.length === 0) return "nothing";
  const value = (mod as { default?: unknown }).default;
  return value !== undefined ? `a default ${value === null ? "null" : typeof value}` : `only named exports (${keys.slice(0, 5).join(", ")})`;
}
