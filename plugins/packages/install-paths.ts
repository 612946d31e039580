/**
 * Where an installed package's files are, by scope: npm packages in a private npm project
 * (`<agent dir>/npm`, a project's `.atomic/npm`, `<agent dir>/tmp/extensions/npm` for `-e`), git
 * packages as clones (`.../git/<host>/<path>`), a local folder where it is. Pure, so the
 * `packages` service answers it without loading the installer.
 */
import { join } from "node:path";
import type { PackageSource } from "../../lib/packages/source.js";

export type InstallScope = "user" | "project" | "temporary";

export interface InstallPlace {
  agentDir: string;
  cwd: string;
}

export function npmRoot(place: InstallPlace, scope: InstallScope): string {
  if (scope === "project") return join(place.cwd, ".atomic", "npm");
  if (scope === "temporary") return join(place.agentDir, "tmp", "extensions", "npm");
  return join(place.agentDir, "npm");
}

export function gitRoot(place: InstallPlace, scope: InstallScope): string {
  if (scope === "project") return join(place.cwd, ".atomic", "git");
  if (scope === "temporary") return join(place.agentDir, "tmp", "extensions", "git");
  return join(place.agentDir, "git");
}

/** Where the package's files are (local: the path itself). */
export function installPath(place: InstallPlace, source: PackageSource, scope: InstallScope): string {
  if (source.type === "local") return source.path;
  if (source.type === "npm") return join(npmRoot(place, scope), "node_modules", ...source.name.split("/"));
  const leaf = scope === "temporary" && source.ref !== undefined ? `${source.path}@${source.ref}` : source.path;
  return join(gitRoot(place, scope), source.host, ...leaf.split("/"));
}
