/**
 * pi's `DefaultPackageManager` over Atomic's packages plugin: the settings lists are read and
 * written through the `SettingsManager` it is given (as pi does), installs go through the
 * `packages` service's installer, to the places `atomic install` uses and startup loads from.
 * npm's and git's output goes to stderr (`commandOutput: "inherit"`, stdout is the protocol's)
 * or is kept for the error message (`"capture"`).
 */
import { existsSync } from "node:fs";
import { dirname, join, relative, resolve as resolvePath } from "node:path";
import { offlineVariable } from "../../../lib/offline/index.js";
import { localPackageProblem, packageResources, type ResourceFilter } from "../../../lib/packages/index.js";
import { type PackageSource, parseSource, sourceIdentity } from "../../../lib/packages/source.js";
import type { InstallScope, PackageInstaller, PackagesApi, PackageSetting } from "../../packages/api.js";
import { CONFIG_DIR_NAME_FOR_PACKAGES, type PathMetadata, type ResolvedPaths, topLevelResources } from "./package-resources.js";

import type { ConfiguredPackage, MissingSourceAction, PackageManagerOptions, PackageSettings, ProgressCallback, ProgressEvent } from "./package-manager-types.js";

export type { PathMetadata, ResolvedPaths, ResolvedResource } from "./package-resources.js";
export type { ConfiguredPackage, MissingSourceAction, PackageManagerOptions, ProgressCallback, ProgressEvent } from "./package-manager-types.js";

type Scope = "user" | "project";

const sourceOf = (entry: PackageSetting) => (typeof entry === "string" ? entry : entry.source);

/** The class extensions get, bound to the `packages` service of the agent whose code builds one. */
export function packageManagerClass(packages: (what: string) => PackagesApi) {
  return class DefaultPackageManager {
    readonly #cwd: string;
    readonly #agentDir: string;
    readonly #settings: PackageSettings;
    readonly #installer: PackageInstaller;
    #progress: ProgressCallback | undefined;

    constructor(options: PackageManagerOptions) {
      if (options.builtinExtensions && options.builtinExtensions.length > 0) {
        throw new Error("DefaultPackageManager: Atomic has no built-in extensions (builtinExtensions); its MCP and codemode features are plugins the agent loads itself");
      }
      this.#cwd = resolvePath(options.cwd);
      this.#agentDir = resolvePath(options.agentDir);
      this.#settings = options.settingsManager as PackageSettings;
      const npmCommand = this.#settings.getNpmCommand?.();
      this.#installer = packages("new DefaultPackageManager()").installer({
        agentDir: this.#agentDir,
        cwd: this.#cwd,
        output: options.commandOutput === "capture" ? "capture" : "stderr",
        ...(npmCommand ? { npmCommand } : {}),
      });
    }

    setProgressCallback(callback: ProgressCallback | undefined): void {
      this.#progress = callback;
    }

    addSourceToSettings(source: string, options?: { local?: boolean }): boolean {
      const scope: Scope = options?.local ? "project" : "user";
      const current = this.#entries(scope);
      const written = this.#forSettings(source, scope);
      const identity = sourceIdentity(this.#parse(source));
      const index = current.findIndex((entry) => this.#identity(entry, scope) === identity);
      if (index !== -1 && sourceOf(current[index]!) === written) return false;
      const next = [...current];
      if (index === -1) next.push(written);
      else next[index] = typeof current[index] === "string" ? written : { ...(current[index] as object), source: written };
      this.#write(scope, next);
      return true;
    }

    removeSourceFromSettings(source: string, options?: { local?: boolean }): boolean {
      const scope: Scope = options?.local ? "project" : "user";
      const current = this.#entries(scope);
      const identity = sourceIdentity(this.#parse(source));
      const next = current.filter((entry) => this.#identity(entry, scope) !== identity);
      if (next.length === current.length) return false;
      this.#write(scope, next);
      return true;
    }

    /** A settings entry's installed files, when they are there. */
    getInstalledPath(source: string, scope: Scope): string | undefined {
      const path = this.#installer.path(parseSource(source, this.#base(scope)), scope);
      return existsSync(path) ? path : undefined;
    }

    listConfiguredPackages(): ConfiguredPackage[] {
      return (["user", "project"] as const).flatMap((scope) =>
        this.#entries(scope).map((entry) => {
          const installedPath = this.#tryInstalledPath(sourceOf(entry), scope);
          return { source: sourceOf(entry), scope, filtered: typeof entry === "object", ...(installedPath ? { installedPath } : {}) };
        }),
      );
    }

    async install(source: string, options?: { local?: boolean }): Promise<void> {
      const scope: Scope = options?.local ? "project" : "user";
      this.#assertTrusted(scope);
      const parsed = this.#parse(source);
      await this.#step("install", source, `Installing ${source}...`, () => this.#installer.install(parsed, scope));
    }

    async installAndPersist(source: string, options?: { local?: boolean }): Promise<void> {
      await this.install(source, options);
      this.addSourceToSettings(source, options);
    }

    async remove(source: string, options?: { local?: boolean }): Promise<void> {
      const scope: Scope = options?.local ? "project" : "user";
      this.#assertTrusted(scope);
      const parsed = this.#parse(source);
      await this.#step("remove", source, `Removing ${source}...`, () => this.#installer.remove(parsed, scope));
    }

    async removeAndPersist(source: string, options?: { local?: boolean }): Promise<boolean> {
      await this.remove(source, options);
      return this.removeSourceFromSettings(source, options);
    }

    /** Updates the configured npm (unpinned) and git packages, or the one `source` names; nothing when offline. */
    async update(source?: string): Promise<void> {
      const wanted = source === undefined ? undefined : sourceIdentity(this.#parse(source));
      const targets = (["user", "project"] as const).flatMap((scope) =>
        this.#entries(scope)
          .filter((entry) => wanted === undefined || this.#identity(entry, scope) === wanted)
          .map((entry) => ({ raw: sourceOf(entry), scope })),
      );
      if (source !== undefined && targets.length === 0) {
        const configured = (["user", "project"] as const).flatMap((scope) => this.#entries(scope).map(sourceOf));
        throw new Error(`No matching package found for ${source}${configured.length > 0 ? ` (configured: ${configured.join(", ")})` : ""}`);
      }
      if (offlineVariable(process.env)) return;
      for (const { raw, scope } of targets) {
        const parsed = parseSource(raw, this.#base(scope));
        if (parsed.type === "local" || (parsed.type === "npm" && parsed.pinned)) continue;
        let change: { from?: string; to?: string } = {};
        await this.#step("update", raw, `Updating ${raw}...`, async () => {
          change = await this.#installer.update(parsed, scope);
        });
        if (change.from !== change.to)
          this.#progress?.({ type: "result", action: "update", source: raw, message: `${raw} ${change.from ?? "(none)"} -> ${change.to ?? "(none)"}` });
      }
    }

    /**
     * What the settings load: each package's resources (project entries over the user's, one per
     * package; a missing one installed unless `onMissing` says otherwise), then the settings'
     * own `extensions`/`skills`/`prompts`/`themes` paths and the conventional folders.
     */
    async resolve(onMissing?: (source: string) => Promise<MissingSourceAction>): Promise<ResolvedPaths> {
      const seen = new Set<string>();
      const entries: { entry: PackageSetting; scope: Scope }[] = [];
      for (const scope of ["project", "user"] as const) {
        for (const entry of this.#entries(scope)) {
          const identity = this.#identity(entry, scope) ?? sourceOf(entry);
          if (seen.has(identity)) continue;
          seen.add(identity);
          entries.push({ entry, scope });
        }
      }
      const out = await this.#resolveEntries(entries, onMissing);
      const project = this.#trusted() ? this.#settings.getProjectSettings() : {};
      await topLevelResources(
        out,
        { user: this.#settings.getGlobalSettings(), project },
        { user: this.#agentDir, project: join(this.#cwd, CONFIG_DIR_NAME_FOR_PACKAGES) },
        this.#trusted(),
      );
      return out;
    }

    /** Packages and folders named on the command line (`-e`), installed when missing. */
    async resolveExtensionSources(sources: string[], options?: { local?: boolean; temporary?: boolean }): Promise<ResolvedPaths> {
      const builtin = sources.find((source) => source.startsWith("builtin:"));
      if (builtin) throw new Error(`DefaultPackageManager: ${builtin}: Atomic has no built-in extensions (its MCP and codemode features are plugins)`);
      const scope: InstallScope = options?.temporary ? "temporary" : options?.local ? "project" : "user";
      return this.#resolveEntries(sources.map((entry) => ({ entry, scope })));
    }

    checkForAvailableUpdates(): Promise<never> {
      return Promise.reject(
        new Error("DefaultPackageManager.checkForAvailableUpdates() is not available in Atomic: run `atomic update` (or call update()), which says what changed"),
      );
    }

    async #resolveEntries(entries: { entry: PackageSetting; scope: InstallScope }[], onMissing?: (source: string) => Promise<MissingSourceAction>): Promise<ResolvedPaths> {
      const out: ResolvedPaths = { extensions: [], skills: [], prompts: [], themes: [], installFailures: [] };
      for (const { entry, scope } of entries) {
        const raw = sourceOf(entry);
        const settingsScope = scope === "temporary" ? "user" : scope;
        try {
          const source = parseSource(raw, scope === "temporary" ? this.#cwd : this.#base(scope));
          const root = this.#installer.path(source, scope);
          if (!(await this.#available(source, scope, raw, onMissing))) continue;
          const found = await packageResources(root, typeof entry === "object" ? filterOf(entry) : undefined);
          // A package that is one extension file has its folder as base and no package root (pi's metadata).
          const oneFile = found.extensions.includes(root);
          const metadata: PathMetadata = oneFile
            ? { source: raw, scope: settingsScope, origin: "package", baseDir: dirname(root) }
            : { source: raw, scope: settingsScope, origin: "package", baseDir: root, packageRoot: root };
          for (const kind of ["extensions", "skills", "prompts", "themes"] as const) {
            for (const path of found[kind]) out[kind].push({ path, enabled: true, metadata: { ...metadata } });
          }
        } catch (error) {
          out.installFailures!.push({ source: raw, scope: settingsScope, message: (error as Error).message });
        }
      }
      return out;
    }

    /** Whether the package is there to read, installing it if `onMissing` (default: install) says so. */
    async #available(source: PackageSource, scope: InstallScope, raw: string, onMissing?: (source: string) => Promise<MissingSourceAction>): Promise<boolean> {
      if (source.type === "local") {
        const problem = await localPackageProblem(source.path);
        if (problem !== undefined) throw new Error(problem);
        return true;
      }
      if (await this.#installer.installed(source, scope)) return true;
      const action = onMissing ? await onMissing(raw) : "install";
      if (action === "skip") return false;
      if (action === "error") throw new Error(`Missing source: ${raw}`);
      const offline = offlineVariable(process.env);
      if (offline) throw new Error(`${raw} is not installed and ${offline} is set (offline mode)`);
      await this.#step("install", raw, `Installing ${raw}...`, () => this.#installer.install(source, scope));
      return true;
    }

    async #step(action: ProgressEvent["action"], source: string, message: string, run: () => Promise<unknown>): Promise<void> {
      this.#progress?.({ type: "start", action, source, message });
      try {
        await run();
      } catch (error) {
        this.#progress?.({ type: "error", action, source, message: (error as Error).message });
        throw error;
      }
      this.#progress?.({ type: "complete", action, source });
    }

    #trusted(): boolean {
      return this.#settings.isProjectTrusted?.() ?? true;
    }

    #assertTrusted(scope: Scope): void {
      if (scope === "project" && !this.#trusted()) throw new Error(`The project ${this.#cwd} is not trusted, so its packages are not installed or changed`);
    }

    /** A source as the user typed it: local paths from the working folder. */
    #parse(source: string): PackageSource {
      return parseSource(source, this.#cwd);
    }

    #base(scope: Scope): string {
      return scope === "project" ? join(this.#cwd, CONFIG_DIR_NAME_FOR_PACKAGES) : this.#agentDir;
    }

    #identity(entry: PackageSetting, scope: Scope): string | undefined {
      try {
        return sourceIdentity(parseSource(sourceOf(entry), this.#base(scope)));
      } catch {
        return undefined;
      }
    }

    #tryInstalledPath(source: string, scope: Scope): string | undefined {
      try {
        return this.getInstalledPath(source, scope);
      } catch {
        return undefined;
      }
    }

    /** Local paths are written relative to the settings file's folder, as pi and `atomic install` do. */
    #forSettings(source: string, scope: Scope): string {
      const parsed = this.#parse(source);
      if (parsed.type !== "local") return source.trim();
      return relative(this.#base(scope), parsed.path) || ".";
    }

    #entries(scope: Scope): PackageSetting[] {
      const settings = scope === "project" ? this.#settings.getProjectSettings() : this.#settings.getGlobalSettings();
      return Array.isArray(settings.packages) ? [...settings.packages] : [];
    }

    #write(scope: Scope, packages: PackageSetting[]): void {
      this.#assertTrusted(scope);
      if (scope === "project") this.#settings.setProjectPackages(packages);
      else this.#settings.setPackages(packages);
    }
  };
}

function filterOf(entry: Exclude<PackageSetting, string>): ResourceFilter {
  const filter: ResourceFilter = {};
  for (const kind of ["extensions", "skills", "prompts", "themes"] as const) if (entry[kind] !== undefined) filter[kind] = entry[kind];
  return filter;
}
