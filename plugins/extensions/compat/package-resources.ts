/**
 * pi's `ResolvedPaths` (what `DefaultPackageManager.resolve()` answers) and the resources the
 * settings name outside packages: each settings file's `extensions`/`skills`/`prompts`/`themes`
 * paths (from the file's folder) and the conventional folders beside it (`<agent dir>/extensions`,
 * `<project>/.atomic/skills`, ...), the project's only when it is trusted.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { expandHome } from "../../../kernel/index.js";
import { extensionsIn, skillsIn, promptsIn } from "../../../lib/packages/walk.js";

export const CONFIG_DIR_NAME_FOR_PACKAGES = ".atomic";

export interface PathMetadata {
  source: string;
  scope: "user" | "project" | "temporary";
  origin: "package" | "top-level";
  baseDir?: string;
  changelogPath?: string;
  packageRoot?: string;
}
export interface ResolvedResource {
  path: string;
  enabled: boolean;
  metadata: PathMetadata;
}
type Kind = "extensions" | "skills" | "prompts" | "themes";
export type ResolvedPaths = Record<Kind, ResolvedResource[]> & { installFailures?: { source: string; scope: "user" | "project" | "temporary"; message: string }[] };

const KINDS: Kind[] = ["extensions", "skills", "prompts", "themes"];
const anywhere = async () => true;

/** A folder's resources of one kind, by pi's discovery rules. */
function inFolder(kind: Kind, dir: string): Promise<string[]> {
  if (kind === "extensions") return extensionsIn(dir, anywhere);
  if (kind === "skills") return skillsIn(dir);
  if (kind === "prompts") return promptsIn(dir);
  return Promise.resolve(
    readdirSync(dir)
      .filter((name) => name.endsWith(".json"))
      .sort()
      .map((name) => join(dir, name)),
  );
}

/**
 * Adds, project first (its resources win a name clash), each file's listed paths then its
 * conventional folders. Listed entries that are pi's override patterns (`+x`, `-x`, `!x`) or
 * globs are filters over discovered files, which Atomic applies when it loads; here they are
 * refused with an error naming the entry, never skipped without a word.
 */
export async function topLevelResources(
  out: ResolvedPaths,
  settings: Record<"user" | "project", Record<string, unknown>>,
  bases: Record<"user" | "project", string>,
  projectTrusted: boolean,
): Promise<void> {
  const seen = new Set([...KINDS.flatMap((kind) => out[kind].map((resource) => resource.path))]);
  const add = (kind: Kind, path: string, scope: "user" | "project", baseDir: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    out[kind].push({ path, enabled: true, metadata: { source: "local", scope, origin: "top-level", baseDir } });
  };
  for (const scope of projectTrusted ? (["project", "user"] as const) : (["user"] as const)) {
    const base = bases[scope];
    for (const kind of KINDS) {
      const listed = settings[scope][kind];
      for (const entry of Array.isArray(listed) ? listed : []) {
        if (typeof entry !== "string") continue;
        if (/^[+!-]/.test(entry) || /[*?[]/.test(entry)) {
          (out.installFailures ??= []).push({ source: entry, scope, message: `${kind} entry "${entry}" is a pattern; DefaultPackageManager.resolve() in Atomic lists paths only` });
          continue;
        }
        const path = resolve(base, expandHome(entry));
        if (!existsSync(path)) continue;
        if (statSync(path).isDirectory()) for (const file of await inFolder(kind, path)) add(kind, file, scope, base);
        else add(kind, path, scope, base);
      }
      const conventional = join(base, kind);
      if (existsSync(conventional) && statSync(conventional).isDirectory()) for (const file of await inFolder(kind, conventional)) add(kind, file, scope, base);
    }
  }
}
