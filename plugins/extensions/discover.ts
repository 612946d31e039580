/**
 * Where extensions come from, in load order: `-e` paths, the `extensions` setting, the user's
 * `<agent dir>/extensions/`, then the project's `.atomic/extensions/` (loaded only for a trusted
 * project). In a folder, each `.ts`/`.js` file is an extension, and so is each subfolder: the
 * entries its package.json names (`"atomic": {"extensions": [...]}` or pi's `"pi"`), else its
 * `index.ts`/`index.js`. A path is loaded once, however often it is named.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import { expandHome } from "../../kernel/index.js";
import type { ExtensionScope, ExtensionSource } from "./record.js";

export interface DiscoverOptions {
  cwd: string;
  agentDir: string;
  /** `-e` paths, relative to the working folder. */
  cliPaths: readonly string[];
  /** The `extensions` setting, relative to the agent dir. */
  settingsPaths: readonly string[];
  /** False with --no-extensions: only `-e` paths load. */
  discover: boolean;
}

export interface Discovery {
  sources: ExtensionSource[];
  /** The project's extensions, for the caller to load or skip by trust. */
  project: ExtensionSource[];
  projectDir: string;
  /** Named paths that do not exist. */
  missing: ExtensionSource[];
}

export async function discoverExtensions(options: DiscoverOptions): Promise<Discovery> {
  const seen = new Set<string>();
  const take = (paths: string[], scope: ExtensionScope): ExtensionSource[] =>
    paths.filter((path) => !seen.has(path) && seen.add(path)).map((path) => ({ path, scope }));
  const missing: ExtensionSource[] = [];
  const named = async (paths: readonly string[], base: string, scope: ExtensionScope): Promise<ExtensionSource[]> => {
    const out: ExtensionSource[] = [];
    for (const raw of paths) {
      const expanded = expandHome(raw);
      const path = isAbsolute(expanded) ? expanded : resolve(base, expanded);
      const entries = await entriesOfPath(path);
      if (entries === undefined) missing.push({ path, scope });
      else out.push(...take(entries, scope));
    }
    return out;
  };
  const projectDir = join(options.cwd, ".atomic", "extensions");
  const sources = [...(await named(options.cliPaths, options.cwd, "cli"))];
  if (!options.discover) return { sources, project: [], projectDir, missing };
  sources.push(...(await named(options.settingsPaths, options.agentDir, "settings")));
  sources.push(...take(await entriesOfFolder(join(options.agentDir, "extensions")), "user"));
  const project = take(await entriesOfFolder(projectDir), "project");
  return { sources, project, projectDir, missing };
}

/** A named path: a file is itself; a folder is its declared entries, else every extension in it. Undefined when missing. */
async function entriesOfPath(path: string): Promise<string[] | undefined> {
  const kind = await kindOf(path);
  if (kind === undefined) return undefined;
  if (kind === "file") return [path];
  return (await packageEntries(path)) ?? (await entriesOfFolder(path));
}

/** One level: extension files, and subfolders with a manifest or an index. Sorted by name. */
async function entriesOfFolder(dir: string): Promise<string[]> {
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
    else if (kind === "folder") out.push(...((await packageEntries(path)) ?? []));
  }
  return out;
}

/** A folder's entries: its package.json manifest (`atomic`, else `pi`), else index.ts / index.js. */
async function packageEntries(dir: string): Promise<string[] | undefined> {
  const manifest = await readManifest(join(dir, "package.json"));
  if (manifest) {
    const declared: string[] = [];
    for (const entry of manifest) {
      const path = resolve(dir, entry);
      if ((await kindOf(path)) === "file") declared.push(path);
    }
    if (declared.length > 0) return declared;
  }
  for (const index of ["index.ts", "index.js"]) {
    const path = join(dir, index);
    if ((await kindOf(path)) === "file") return [path];
  }
  return undefined;
}

async function readManifest(path: string): Promise<string[] | undefined> {
  let pkg: unknown;
  try {
    pkg = JSON.parse(await readFile(path, "utf8"));
  } catch {
    return undefined;
  }
  for (const key of ["atomic", "pi"]) {
    const extensions = (pkg as Record<string, { extensions?: unknown } | undefined>)?.[key]?.extensions;
    if (Array.isArray(extensions)) return extensions.filter((entry): entry is string => typeof entry === "string");
  }
  return undefined;
}

function isExtensionFile(name: string): boolean {
  return (name.endsWith(".ts") && !name.endsWith(".d.ts")) || name.endsWith(".js");
}

async function kindOf(path: string): Promise<"file" | "folder" | undefined> {
  try {
    const info = await stat(path);
    return info.isFile() ? "file" : info.isDirectory() ? "folder" : undefined;
  } catch {
    return undefined;
  }
}
