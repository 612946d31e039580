/**
 * Where extensions come from, in load order: `-e` paths, the `extensions` setting, the user's
 * packages, the user's `<agent dir>/extensions/`, then (loaded only for a trusted project) the
 * project's packages and its `.atomic/extensions/`. In those two folders, each `.ts`/`.js` file is
 * an extension, and so is each subfolder: the entries its package.json names (`"atomic":
 * {"extensions": [...]}` or pi's `"pi"`), else its `index.ts`/`index.js`. A named folder is a
 * package (lib/packages: its manifest, conventional folders, or its one entry file). What the
 * packages plugin resolved (`-e npm:...`, package folders, the `packages` setting) comes in
 * ready. A path is loaded once, however often it is named.
 */
import { readdir, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, resolve, sep } from "node:path";
import { expandHome } from "../../kernel/index.js";
import type { ExtensionScope, ExtensionSource } from "./record.js";

/** The extension files of packages, as the packages plugin resolved them. */
export interface PackageExtensions {
  /** Per `-e` entry (as written) that named a package or a folder. */
  cliEntries: ReadonlyMap<string, readonly string[]>;
  /** The user's packages, then the trusted project's. */
  user: readonly string[];
  project: readonly string[];
}

export interface DiscoverOptions {
  cwd: string;
  agentDir: string;
  /** `-e` paths, relative to the working folder. */
  cliPaths: readonly string[];
  /** The `extensions` setting, relative to the agent dir. */
  settingsPaths: readonly string[];
  /** False with --no-extensions: only `-e` paths load. */
  discover: boolean;
  packages?: PackageExtensions;
}

export interface Discovery {
  sources: ExtensionSource[];
  /** The project's extensions, for the caller to load or skip by trust. */
  project: ExtensionSource[];
  projectDir: string;
  /** Named paths that do not exist. */
  missing: ExtensionSource[];
  /** `-e` folders with nothing to load (no manifest entry, no index, no extension file). */
  empty: string[];
  /** Manifest entries refused (pointing outside their package), one sentence each, by the folder that named them. */
  problems: { path: string; error: string }[];
}

export async function discoverExtensions(options: DiscoverOptions): Promise<Discovery> {
  const seen = new Set<string>();
  const take = (paths: string[], scope: ExtensionScope): ExtensionSource[] => paths.filter((path) => !seen.has(path) && seen.add(path)).map((path) => ({ path, scope }));
  const missing: ExtensionSource[] = [];
  const empty: string[] = [];
  const problems: Discovery["problems"] = [];
  const named = async (paths: readonly string[], base: string, scope: ExtensionScope): Promise<ExtensionSource[]> => {
    const out: ExtensionSource[] = [];
    for (const raw of paths) {
      const expanded = expandHome(raw);
      const path = isAbsolute(expanded) ? expanded : resolve(base, expanded);
      const resolved = scope === "cli" ? options.packages?.cliEntries.get(raw) : undefined;
      if (resolved) {
        // A package of skills or prompts only is fine; a local folder with no resource at all is not.
        if (resolved.length === 0 && (await isEmptyFolder(path))) empty.push(path);
        out.push(...take([...resolved], scope));
        continue;
      }
      const entries = await entriesOfPath(path, problems);
      if (entries === undefined) missing.push({ path, scope });
      else if (entries.length === 0 && scope === "cli") empty.push(path);
      else out.push(...take(entries, scope));
    }
    return out;
  };
  const projectDir = join(options.cwd, ".atomic", "extensions");
  const sources = [...(await named(options.cliPaths, options.cwd, "cli"))];
  if (!options.discover) return { sources, project: [], projectDir, missing, empty, problems };
  sources.push(...(await named(options.settingsPaths, options.agentDir, "settings")));
  sources.push(...take([...(options.packages?.user ?? [])], "settings"));
  sources.push(...take(await entriesOfFolder(join(options.agentDir, "extensions"), problems), "user"));
  const project = take([...(options.packages?.project ?? []), ...(await entriesOfFolder(projectDir, problems))], "project");
  return { sources, project, projectDir, missing, empty, problems };
}

/** A named path: a file is itself; a folder is a package (one entry, never also the sources beside it). Undefined when missing. */
async function entriesOfPath(path: string, problems: Discovery["problems"]): Promise<string[] | undefined> {
  const kind = await kindOf(path);
  if (kind === undefined) return undefined;
  if (kind === "file") return [path];
  const { packageResources } = await import("../../lib/packages/index.js");
  const resources = await packageResources(path);
  for (const error of resources.problems) problems.push({ path, error });
  return resources.extensions;
}

/** A folder with no extension, skill, prompt or theme for pi or Atomic to load. */
async function isEmptyFolder(path: string): Promise<boolean> {
  if ((await kindOf(path)) !== "folder") return false;
  const { packageResources } = await import("../../lib/packages/index.js");
  const { extensions, skills, prompts, themes } = await packageResources(path);
  return extensions.length + skills.length + prompts.length + themes.length === 0;
}

/** One level: extension files, and subfolders with a manifest or an index. Sorted by name. */
async function entriesOfFolder(dir: string, problems: Discovery["problems"]): Promise<string[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of names) {
    if (name.startsWith(".")) continue;
    const path = join(dir, name);
    const kind = await kindOf(path);
    if (kind === "file" && isExtensionFile(name)) out.push(path);
    else if (kind === "folder") {
      const { folderEntries } = await import("../../lib/packages/index.js");
      const refused: string[] = [];
      out.push(...((await folderEntries(path, insideOf(path), refused)) ?? []));
      for (const error of refused) problems.push({ path, error });
    }
  }
  return out;
}

/** A subfolder's manifest may name only files inside it. */
function insideOf(dir: string): (path: string) => Promise<boolean> {
  return async (path) => {
    const [real, root] = await Promise.all([realpath(path).catch(() => path), realpath(dir).catch(() => dir)]);
    return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
  };
}

function isExtensionFile(name: string): boolean {
  return (name.endsWith(".ts") && !name.endsWith(".d.ts")) || name.endsWith(".js") || name.endsWith(".mjs");
}

async function kindOf(path: string): Promise<"file" | "folder" | undefined> {
  try {
    const info = await stat(path);
    return info.isFile() ? "file" : info.isDirectory() ? "folder" : undefined;
  } catch {
    return undefined;
  }
}
