/**
 * The packages a process is asked to load, each parsed once: `-e` entries that are packages, the
 * trusted project's `packages` setting, then the user's. One package (by identity: npm name, git
 * repository, absolute path) loads once: `-e` first, then the project's entry over the user's.
 * Local paths resolve from the settings file that names them (the agent dir, `<cwd>/.atomic`;
 * the working folder for `-e` and settings passed in).
 */
import { join } from "node:path";
import { z } from "zod";
import type { KernelConfig } from "../../kernel/index.js";
import type { ResourceFilter } from "../../lib/packages/index.js";
import { parseSource, sourceIdentity, type PackageSource } from "../../lib/packages/source.js";
import type { PackageScope, PackageSetting } from "./api.js";
import type { InstallScope } from "./store.js";

export const PackageSettingSchema = () =>
  z.array(
    z.union([
      z.string().min(1),
      z.looseObject({
        source: z.string().min(1),
        extensions: z.array(z.string()).optional(),
        skills: z.array(z.string()).optional(),
        prompts: z.array(z.string()).optional(),
        themes: z.array(z.string()).optional(),
      }),
    ]),
  );

export interface Wanted {
  raw: string;
  scope: PackageScope;
  source: PackageSource;
  filter?: ResourceFilter;
}

export interface WantedList {
  wanted: Wanted[];
  /** Entries that do not parse, one message each. */
  invalid: { raw: string; scope: PackageScope; error: string }[];
}

export function installScope(scope: PackageScope): InstallScope {
  return scope === "cli" ? "temporary" : scope;
}

/** `cliSources`: the `-e` entries the caller decided are packages. */
export function configuredPackages(config: KernelConfig, cliSources: readonly string[]): WantedList {
  const list: WantedList = { wanted: [], invalid: [] };
  const seen = new Set<string>();
  const add = (entry: PackageSetting, scope: PackageScope, base: string) => {
    const raw = typeof entry === "string" ? entry : entry.source;
    let source: PackageSource;
    try {
      source = parseSource(raw, base, config.env);
    } catch (error) {
      list.invalid.push({ raw, scope, error: (error as Error).message });
      return;
    }
    const identity = sourceIdentity(source);
    if (seen.has(identity)) return;
    seen.add(identity);
    list.wanted.push({ raw, scope, source, ...(typeof entry === "object" ? { filter: filterOf(entry) } : {}) });
  };
  for (const raw of cliSources) add(raw, "cli", config.cwd);
  const { user, project } = layers(config);
  for (const entry of project) add(entry, "project", join(config.cwd, ".atomic"));
  for (const entry of user.entries) add(entry, "user", user.base);
  return list;
}

/** Each file's list; settings passed in by an embedder count as the user's, relative to the cwd. */
function layers(config: KernelConfig): { user: { entries: PackageSetting[]; base: string }; project: PackageSetting[] } {
  const fromLayer = (layer: Readonly<Record<string, unknown>> | undefined) => (Array.isArray(layer?.packages) ? (layer.packages as PackageSetting[]) : []);
  const source = config.settingsSources?.sources.packages;
  if (!config.settingsLayers || source === "override") {
    const merged = config.settings.packages ?? [];
    return { user: { entries: merged, base: source === "override" ? config.cwd : config.agentDir }, project: [] };
  }
  return { user: { entries: fromLayer(config.settingsLayers.user), base: config.agentDir }, project: config.trusted ? fromLayer(config.settingsLayers.project) : [] };
}

export function filterOf(entry: Exclude<PackageSetting, string>): ResourceFilter {
  const filter: ResourceFilter = {};
  for (const kind of ["extensions", "skills", "prompts", "themes"] as const) if (entry[kind] !== undefined) filter[kind] = entry[kind];
  return filter;
}
