/**
 * Boot-time resolution: each wanted package is found where it is installed (a configured one
 * that is missing, or an npm one at a version its source no longer accepts, is installed now,
 * within one shared time budget), then read for what it provides. A package that cannot be had
 * is one failure (one stderr line and an `extension_error` from the caller) and the rest loads.
 */
import { offlineVariable } from "../../lib/offline/index.js";
import { localPackageProblem, packageResources } from "../../lib/packages/index.js";
import type { LoadedPackage, PackageFailure, PackageResolution } from "./api.js";
import { installScope, type Wanted, type WantedList } from "./configured.js";
import type { PackageStore } from "./store.js";

export interface ResolveOptions {
  store: PackageStore;
  /** Absolute time by which installs must be done. */
  deadline: number;
  /** A problem inside a package that loaded (a refused manifest entry): one stderr line each. */
  warn: (message: string) => void;
}

export async function resolveWanted(list: WantedList, cliEntries: Map<string, string[]>, options: ResolveOptions): Promise<PackageResolution> {
  const packages: LoadedPackage[] = [];
  const failures: PackageFailure[] = list.invalid.map(({ raw, scope, error }) => ({ source: raw, scope, error }));
  for (const wanted of list.wanted) {
    try {
      const loaded = await resolveOne(wanted, options);
      packages.push(loaded);
      if (wanted.scope === "cli") cliEntries.set(wanted.raw, loaded.extensions);
    } catch (error) {
      failures.push({ source: wanted.raw, scope: wanted.scope, error: (error as Error).message });
      if (wanted.scope === "cli") cliEntries.set(wanted.raw, []);
    }
  }
  return { packages, cliEntries, failures };
}

async function resolveOne(wanted: Wanted, options: ResolveOptions): Promise<LoadedPackage> {
  const { source, scope } = wanted;
  const where = installScope(scope);
  if (source.type === "local") {
    const problem = await localPackageProblem(source.path);
    if (problem !== undefined) throw new Error(problem);
  } else if (!(await options.store.installed(source, where))) {
    const offline = offlineVariable(process.env);
    if (offline) throw new Error(`${wanted.raw} is not installed and ${offline} is set (offline mode): its resources are skipped this run`);
    try {
      await options.store.install(source, where, options.deadline);
    } catch (error) {
      throw new Error(`Could not install ${wanted.raw}: ${(error as Error).message}. Its resources are skipped this run; run \`atomic install ${wanted.raw}\` to see why.`);
    }
  }
  const root = options.store.path(source, where);
  const resources = await packageResources(root, wanted.filter);
  for (const problem of resources.problems) options.warn(problem);
  return {
    source: wanted.raw,
    scope,
    root,
    ...(resources.name !== undefined ? { name: resources.name } : {}),
    ...(resources.version !== undefined ? { version: resources.version } : {}),
    extensions: resources.extensions,
    skills: resources.skills,
    prompts: resources.prompts,
  };
}
