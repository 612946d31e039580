/**
 * What one package folder provides. In order of precedence:
 * 1. a manifest (`atomic`, else pi's `pi`, in package.json) listing resources: exactly those
 *    (paths, globs, and `!`/`+`/`-` selections), each of which must stay inside the package;
 * 2. conventional folders: `extensions/`, `skills/`, `prompts/`, `themes/`;
 * 3. the folder's own entry: `index.ts`/`index.js`, else the module package.json declares
 *    (`exports`, `main`) — one file, never also the sources beside it;
 * 4. a folder without package.json: every extension file in it (one level).
 * A local source may also be one extension file (as in pi): the package is that file.
 * A settings entry's filters narrow the result per kind. Themes are listed but a headless agent
 * has no use for them.
 */
import { realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, normalize, relative, resolve, sep } from "node:path";
import { glob } from "tinyglobby";
import { readPackageJson, RESOURCE_KINDS, type Manifest, type ResourceKind } from "./manifest.js";
import { applyPatterns, hasGlob, isOverride } from "./patterns.js";
import { extensionsIn, folderEntries, isExtensionFile, kindOf, promptsIn, skillsIn } from "./walk.js";

export type ResourceFilter = Partial<Record<ResourceKind, readonly string[]>>;

export interface PackageResources {
  /** The package root as given. */
  root: string;
  name?: string;
  version?: string;
  extensions: string[];
  skills: string[];
  prompts: string[];
  themes: string[];
  /** Entries refused or unusable, one sentence each. */
  problems: string[];
}

/**
 * Why a local source cannot be a package (it is missing, or a file that is no extension), or
 * undefined: the same answer for `atomic install` and for startup, so nothing recorded as
 * installed fails at every start.
 */
export async function localPackageProblem(path: string): Promise<string | undefined> {
  const kind = await kindOf(path);
  if (kind === undefined) return `Path does not exist: ${path}`;
  if (kind === "file" && !isExtensionFile(basename(path))) return `Not a package: ${path} is neither a folder nor an extension file (.ts, .js, .mjs)`;
  return undefined;
}

export async function packageResources(root: string, filter?: ResourceFilter): Promise<PackageResources> {
  if ((await kindOf(root)) === "file") return oneFile(root, filter);
  const realRoot = await realpath(root).catch(() => resolve(root));
  const inside = async (path: string) => isInside(await realpath(path).catch(() => resolve(path)), realRoot);
  const pkg = await readPackageJson(root);
  const out: PackageResources = { root, extensions: [], skills: [], prompts: [], themes: [], problems: [] };
  if (pkg.name !== undefined) out.name = pkg.name;
  if (pkg.version !== undefined) out.version = pkg.version;
  if (pkg.problem) out.problems.push(`Package ${root}: ${pkg.problem}`);
  if (pkg.manifest) {
    for (const kind of RESOURCE_KINDS) out[kind] = await manifestFiles(pkg.manifest, kind, root, `${pkg.manifestKey}.${kind}`, inside, out.problems);
  } else {
    let conventional = false;
    for (const kind of RESOURCE_KINDS) {
      const dir = join(root, kind);
      if ((await kindOf(dir)) !== "folder") continue;
      conventional = true;
      out[kind] = await filesOf(dir, kind, inside, out.problems);
    }
    if (!conventional) out.extensions = await ownEntry(root, pkg.exists, pkg.entry, inside, out.problems);
  }
  if (filter) {
    for (const kind of RESOURCE_KINDS) {
      const patterns = filter[kind];
      if (patterns !== undefined) out[kind] = patterns.length === 0 ? [] : applyPatterns(out[kind], patterns, root);
    }
  }
  return out;
}

/** A package that is one extension file; a settings filter matches it by name, from its folder. */
function oneFile(root: string, filter?: ResourceFilter): PackageResources {
  const patterns = filter?.extensions;
  const extensions = patterns === undefined ? [root] : patterns.length === 0 ? [] : applyPatterns([root], patterns, dirname(root));
  return { root, extensions, skills: [], prompts: [], themes: [], problems: [] };
}

/** The files a manifest list names: plain paths and globs, then its own `!`/`+`/`-` selections. */
async function manifestFiles(
  manifest: Manifest,
  kind: ResourceKind,
  root: string,
  field: string,
  inside: (path: string) => Promise<boolean>,
  problems: string[],
): Promise<string[]> {
  const entries = manifest[kind] ?? [];
  const files: string[] = [];
  const refuse = (entry: string, why: string) => problems.push(`Refused "${entry}" in ${join(root, "package.json")} (${field}): ${why}`);
  for (const entry of entries.filter((candidate) => !isOverride(candidate))) {
    if (escapes(entry)) {
      refuse(entry, "it points outside the package folder");
      continue;
    }
    const paths = hasGlob(entry)
      ? (await glob(entry, { cwd: root, onlyFiles: false, dot: false, absolute: false, followSymbolicLinks: false })).sort().map((match) => resolve(root, match))
      : [resolve(root, entry)];
    for (const path of paths) {
      const found = await kindOf(path);
      // A missing entry is skipped quietly, as pi does: a stale manifest must not warn on every start.
      if (found === undefined) continue;
      if (!(await inside(path))) {
        refuse(entry, `it leads outside the package folder (a symlink to ${await realpath(path)})`);
        continue;
      }
      files.push(...(found === "file" ? [path] : await filesOf(path, kind, inside, problems)));
    }
  }
  const selections = entries.filter(isOverride);
  const unique = [...new Set(files)];
  return selections.length > 0 ? applyPatterns(unique, selections, root) : unique;
}

/** A folder's files of one kind, each checked to stay inside the package. */
async function filesOf(dir: string, kind: ResourceKind, inside: (path: string) => Promise<boolean>, problems: string[]): Promise<string[]> {
  const found = kind === "extensions" ? await extensionsIn(dir, inside, problems) : kind === "skills" ? await skillsIn(dir) : kind === "prompts" ? await promptsIn(dir) : [];
  const kept: string[] = [];
  for (const path of found) if (await inside(path)) kept.push(path);
  return kept;
}

/** One extension: index.ts / index.js, else the declared module; a loose folder: all its extension files. */
async function ownEntry(root: string, hasPackageJson: boolean, declared: string | undefined, inside: (path: string) => Promise<boolean>, problems: string[]): Promise<string[]> {
  const index = await folderEntries(root, inside, problems);
  if (index) return index;
  if (declared !== undefined) {
    if (escapes(declared)) {
      problems.push(`Refused "${declared}" in ${join(root, "package.json")} (main): it points outside the package folder`);
      return [];
    }
    for (const candidate of [declared, `${declared}.js`, `${declared}.ts`, join(declared, "index.js")]) {
      const path = resolve(root, candidate);
      if ((await kindOf(path)) === "file" && (await inside(path))) return [path];
    }
  }
  return hasPackageJson ? [] : extensionsIn(root, inside, problems);
}

/** An entry that names a place outside its package: absolute, or climbing above it. */
function escapes(entry: string): boolean {
  if (isAbsolute(entry) || /^[a-zA-Z]:[\\/]/.test(entry)) return true;
  const normal = normalize(entry.replace(/\\/g, "/"));
  return normal === ".." || normal.startsWith(`..${sep}`) || normal.startsWith("../") || normal.split(/[\\/]/).includes("..");
}

function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}
