/**
 * The packages plugin's public surface: the `packages` service (what each package provides, once
 * resolved at boot, and an installer for code that manages packages itself, such as pi's
 * `DefaultPackageManager` in the extensions plugin), the `packages` and `npmCommand` settings:
 * types, and one pure helper. The extensions, skills and prompt-templates plugins read the
 * service to load what packages bring.
 */
import type { PackageSource } from "../../lib/packages/source.js";

/** Where a package was named: `-e` (this run only), the user's settings, a trusted project's settings. */
export type PackageScope = "cli" | "user" | "project";

/** A settings entry: a source, or a source with filters narrowing what it loads (pi's object form). */
export type PackageSetting =
  | string
  | {
      source: string;
      extensions?: string[];
      skills?: string[];
      prompts?: string[];
      themes?: string[];
    };

export interface LoadedPackage {
  /** As written (`npm:x@1`, `git:host/o/r`, a path). */
  source: string;
  scope: PackageScope;
  /** The folder its files are in. */
  root: string;
  name?: string;
  version?: string;
  /** Absolute files, in load order. */
  extensions: string[];
  skills: string[];
  prompts: string[];
}

export interface PackageFailure {
  source: string;
  scope: PackageScope;
  error: string;
}

export interface PackageResolution {
  /** Every package that resolved, `-e` ones first, then project, then user (one per identity). */
  packages: LoadedPackage[];
  /**
   * The extension files of each `-e` entry the packages plugin resolved (package sources and
   * folders), by the entry as written; files and missing paths are left to the extensions plugin.
   */
  cliEntries: ReadonlyMap<string, readonly string[]>;
  failures: PackageFailure[];
}

/** Where installed copies go: the user's, a project's (`<cwd>/.atomic`), or this run's only (`-e`). */
export type InstallScope = "user" | "project" | "temporary";

export interface PackageInstallerOptions {
  agentDir: string;
  cwd: string;
  /** Default: the process's. */
  env?: NodeJS.ProcessEnv;
  /** The npm client and its leading arguments (the `npmCommand` setting); default `npm`. */
  npmCommand?: readonly string[];
  /** npm's and git's output: on stderr (default), or kept only for the error message of a failure. */
  output?: "stderr" | "capture";
}

/** A package's version (npm) or commit (git) before and after an update; equal when nothing changed. */
export interface PackageChange {
  from?: string;
  to?: string;
}

/**
 * The installs `atomic install|remove|update` make, without their settings edits or output: the
 * same places (so startup finds them), the same npm and git commands. Sources are parsed by the
 * caller (`lib/packages`: `parseSource`); a local folder is never copied or deleted.
 */
export interface PackageInstaller {
  /** Where the package's files are once installed (local: the folder itself). */
  path(source: PackageSource, scope: InstallScope): string;
  /** Installed, and (npm) at a version the source accepts. */
  installed(source: PackageSource, scope: InstallScope): Promise<boolean>;
  /** Installs (a git clone already there is updated); a local folder must exist. */
  install(source: PackageSource, scope: InstallScope): Promise<void>;
  /** Deletes the installed copy (npm uninstall, the clone); a local folder is left alone. */
  remove(source: PackageSource, scope: InstallScope): Promise<void>;
  /** The newest version the npm source accepts, the branch or ref's commit; a pinned npm version stays. */
  update(source: PackageSource, scope: InstallScope): Promise<PackageChange>;
}

export interface PackagesApi {
  /** Resolved once, at boot (installing configured packages that are missing); later calls share it. */
  resolve(): Promise<PackageResolution>;
  /** An installer working in `options.agentDir` / `options.cwd` (not necessarily this agent's). */
  installer(options: PackageInstallerOptions): PackageInstaller;
}

declare module "../../kernel/services.js" {
  interface Services {
    packages: PackagesApi;
  }
}

declare module "../../kernel/config.js" {
  interface Settings {
    /** Packages to load: user settings, and a trusted project's. */
    packages?: PackageSetting[];
    /** The npm client to install with, and its leading arguments (default `["npm"]`). */
    npmCommand?: string[];
  }
}

/**
 * The skill or template files of every resolved package, as resource roots: where the package
 * was named is their get_commands `location` (`-e`: `path`).
 */
export function packageRoots(resolution: PackageResolution, kind: "skills" | "prompts"): { path: string; location: "user" | "project" | "path" }[] {
  return resolution.packages.flatMap((pkg) => pkg[kind].map((path) => ({ path, location: pkg.scope === "cli" ? ("path" as const) : pkg.scope })));
}
