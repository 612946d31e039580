/**
 * Where resources come from and whether a project file may be read. "The project" is the git
 * repository holding the cwd (the nearest ancestor with a `.git`), or the cwd itself outside a
 * repository: project data is read only from regular files whose real path stays inside it.
 */
import { access } from "node:fs/promises";
import { dirname, isAbsolute, join, resolve, sep } from "node:path";
import { expandHome, type KernelConfig } from "../../kernel/index.js";

/** get_commands `location`: the agent dir, the project's `.atomic/`, or an explicit path. */
export type ResourceLocation = "user" | "project" | "path";

/**
 * How a resource was found, as pi 1.x reports it (`get_commands` `sourceInfo` without `path`):
 * `source` "auto" (a conventional folder), "local" (a settings entry), "cli" (a flag),
 * "extension" (a path an extension announced); `scope` whose configuration brought it.
 */
export interface Provenance {
  source: string;
  scope: "user" | "project" | "temporary";
  origin: "top-level" | "package";
  /** The package's folder, for a package resource. */
  baseDir?: string;
}

/** pi's `sourceInfo`: the resource's file and how it was found. */
export interface SourceInfo extends Provenance {
  path: string;
}

export interface ResourceRoot {
  /** Absolute path of a folder (or a single file) to search. */
  path: string;
  location: ResourceLocation;
  /** Set when everything under it must stay inside this folder (project data). */
  confineTo?: string;
  /** How the root was found; absent: derived from `location` (see provenanceOf). */
  provenance?: Provenance;
}

/** The root's provenance: its own, else the conventional folders' (`user`/`project`), else a temporary path. */
export function provenanceOf(root: ResourceRoot): Provenance {
  if (root.provenance) return root.provenance;
  if (root.location === "user" || root.location === "project") return { source: "auto", scope: root.location, origin: "top-level" };
  return { source: "local", scope: "temporary", origin: "top-level" };
}

/** The nearest ancestor of `cwd` (itself included) holding `.git`, or undefined outside a repository. */
export async function repositoryRoot(cwd: string): Promise<string | undefined> {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (await exists(join(dir, ".git"))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The project's boundary: its repository root, or the cwd outside a repository. */
export async function projectRoot(cwd: string): Promise<string> {
  return (await repositoryRoot(cwd)) ?? resolve(cwd);
}

/** `cwd` and its parents up to the repository root (nearest first); only `cwd` outside a repository. */
export async function projectAncestry(cwd: string): Promise<string[]> {
  const top = await repositoryRoot(cwd);
  const here = resolve(cwd);
  if (!top) return [here];
  const chain: string[] = [];
  for (let dir = here; ; dir = dirname(dir)) {
    chain.push(dir);
    if (dir === top || dirname(dir) === dir) return chain;
  }
}

/** True when `path` is `folder` or inside it (both absolute and real). */
export function isInside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

/**
 * The roots named by a settings key (`skills`, `prompts`). Relative paths are resolved against
 * the folder of the settings file that set them (as in pi): the agent dir for the user's file,
 * `<cwd>/.atomic` for the project's, the cwd for in-memory overrides. A project's own paths must
 * stay inside the project, like its other data.
 */
export function settingRoots(config: KernelConfig, key: string, paths: readonly string[] | undefined, project: string): ResourceRoot[] {
  if (!paths || paths.length === 0) return [];
  const source = config.settingsSources?.sources[key] ?? "user";
  const base = source === "user" ? config.agentDir : source === "project" ? join(config.cwd, ".atomic") : config.cwd;
  const provenance: Provenance = { source: "local", scope: source === "user" || source === "project" ? source : "temporary", origin: "top-level" };
  return paths.map((raw) => {
    const expanded = expandHome(raw, config.env);
    const path = isAbsolute(expanded) ? resolve(expanded) : resolve(base, expanded);
    return source === "project" ? { path, location: "path" as const, confineTo: project, provenance } : { path, location: "path" as const, provenance };
  });
}

/** Paths given on the command line (`--skill`, `--prompt-template`): relative to the cwd, for this run only. */
export function cliRoots(config: Pick<KernelConfig, "cwd" | "env">, paths: readonly string[] | undefined): ResourceRoot[] {
  return (paths ?? []).map((raw) => {
    const expanded = expandHome(raw, config.env);
    return { path: resolve(config.cwd, expanded), location: "path" as const, provenance: { source: "cli", scope: "temporary" as const, origin: "top-level" as const } };
  });
}

/** Paths extensions announced through `resources_discover`: absolute, or relative to the cwd. */
export function discoveredRoots(cwd: string, paths: readonly string[]): ResourceRoot[] {
  return paths.map((raw) => ({
    path: resolve(cwd, raw),
    location: "path" as const,
    provenance: { source: "extension", scope: "temporary" as const, origin: "top-level" as const },
  }));
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
