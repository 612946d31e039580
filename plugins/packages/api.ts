/**
 * The packages plugin's public surface: the `packages` service (what each package provides, once
 * resolved at boot), the `packages` and `npmCommand` settings: types, and one pure helper. The
 * extensions, skills and prompt-templates plugins read the service to load what packages bring.
 */

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

export interface PackagesApi {
  /** Resolved once, at boot (installing configured packages that are missing); later calls share it. */
  resolve(): Promise<PackageResolution>;
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
