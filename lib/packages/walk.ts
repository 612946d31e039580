/**
 * What a folder inside a package holds, per kind of resource (pi's discovery rules):
 * - extensions: the folder's own entries (its package.json manifest, else `index.ts`/`index.js`),
 *   else one level of `.ts`/`.js` files and of subfolders with entries of their own;
 * - skills: a folder with a `SKILL.md` is one skill; otherwise `.md` files directly in the top
 *   folder are skills and subfolders are searched;
 * - prompts: every `.md` file, subfolders included.
 * Dot entries and `node_modules` are skipped, `.gitignore`/`.ignore`/`.fdignore` rules are
 * honoured, names are sorted. Folders are bounded (depth and count) so a huge tree cannot stall
 * startup.
 */
import type { Dirent } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import ignore, { type Ignore } from "ignore";
import { readPackageJson } from "./manifest.js";

const IGNORE_FILES = [".gitignore", ".ignore", ".fdignore"];
const MAX_DEPTH = 8;
const MAX_FOLDERS = 2_000;

export function isExtensionFile(name: string): boolean {
  return (name.endsWith(".ts") && !name.endsWith(".d.ts")) || name.endsWith(".js") || name.endsWith(".mjs");
}

/**
 * A folder's own extension entries (manifest, then index), relative entries resolved; undefined
 * when it declares none. An entry that leads outside what `inside` allows is refused into `problems`.
 */
export async function folderEntries(dir: string, inside: (path: string) => Promise<boolean>, problems?: string[]): Promise<string[] | undefined> {
  const pkg = await readPackageJson(dir);
  const declared = pkg.manifest?.extensions;
  if (declared && declared.length > 0) {
    const found: string[] = [];
    for (const entry of declared) {
      const path = resolve(dir, entry);
      if ((await kindOf(path)) !== "file") continue;
      if (await inside(path)) found.push(path);
      else problems?.push(`Refused "${entry}" in ${join(dir, "package.json")} (${pkg.manifestKey}.extensions): it points outside the package folder`);
    }
    if (found.length > 0) return found;
  }
  for (const index of ["index.ts", "index.js"]) {
    const path = join(dir, index);
    if ((await kindOf(path)) === "file") return [path];
  }
  return undefined;
}

/** Extensions in a folder: its own entries, else one level of files and entry-bearing subfolders. */
export async function extensionsIn(dir: string, inside: (path: string) => Promise<boolean>, problems?: string[]): Promise<string[]> {
  const own = await folderEntries(dir, inside, problems);
  if (own) return own;
  const out: string[] = [];
  const rules = (await ignoreRules(dir, dir, [])).matcher;
  for (const entry of await listing(dir)) {
    const path = join(dir, entry.name);
    const kind = await entryKind(entry, path);
    if (rules.ignores(kind === "folder" ? `${entry.name}/` : entry.name)) continue;
    if (kind === "file" && isExtensionFile(entry.name)) out.push(path);
    else if (kind === "folder") out.push(...((await folderEntries(path, inside, problems)) ?? []));
  }
  return out;
}

/** Skill files (SKILL.md, or top-level .md files) under a folder. */
export function skillsIn(dir: string): Promise<string[]> {
  return new Walk(dir).skills(dir, 0);
}

/** Every .md file under a folder. */
export function promptsIn(dir: string): Promise<string[]> {
  return new Walk(dir).files(dir, 0, (name) => name.endsWith(".md"));
}

class Walk {
  #folders = 0;
  constructor(private readonly root: string) {}

  async skills(dir: string, depth: number, inherited: readonly string[] = []): Promise<string[]> {
    const entries = await this.#enter(dir, depth);
    if (!entries) return [];
    const { lines, matcher: rules } = await ignoreRules(dir, this.root, inherited);
    const skill = entries.find((entry) => entry.name === "SKILL.md");
    if (skill && (await entryKind(skill, join(dir, skill.name))) === "file" && !rules.ignores(this.#rel(join(dir, skill.name)))) return [join(dir, skill.name)];
    const out: string[] = [];
    for (const entry of entries) {
      const path = join(dir, entry.name);
      const kind = await entryKind(entry, path);
      if (rules.ignores(this.#rel(path) + (kind === "folder" ? "/" : ""))) continue;
      if (kind === "file" && depth === 0 && entry.name.endsWith(".md")) out.push(path);
      else if (kind === "folder") out.push(...(await this.skills(path, depth + 1, lines)));
    }
    return out;
  }

  async files(dir: string, depth: number, wanted: (name: string) => boolean, inherited: readonly string[] = []): Promise<string[]> {
    const entries = await this.#enter(dir, depth);
    if (!entries) return [];
    const { lines, matcher: rules } = await ignoreRules(dir, this.root, inherited);
    const out: string[] = [];
    for (const entry of entries) {
      const path = join(dir, entry.name);
      const kind = await entryKind(entry, path);
      if (rules.ignores(this.#rel(path) + (kind === "folder" ? "/" : ""))) continue;
      if (kind === "file" && wanted(entry.name)) out.push(path);
      else if (kind === "folder") out.push(...(await this.files(path, depth + 1, wanted, lines)));
    }
    return out;
  }

  async #enter(dir: string, depth: number): Promise<Dirent[] | undefined> {
    if (depth > MAX_DEPTH || ++this.#folders > MAX_FOLDERS) return undefined;
    return listing(dir);
  }

  #rel(path: string): string {
    return relative(this.root, path).split(sep).join("/");
  }
}

/** Sorted entries without dot names and node_modules; [] when unreadable. */
async function listing(dir: string): Promise<Dirent[]> {
  try {
    return (await readdir(dir, { withFileTypes: true }))
      .filter((entry) => !entry.name.startsWith(".") && entry.name !== "node_modules")
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

/** The rules in force in `dir`: its parents' and its own ignore files' (re-rooted at `root`, so a nested file applies to its own subtree). */
async function ignoreRules(dir: string, root: string, inherited: readonly string[]): Promise<{ lines: readonly string[]; matcher: Ignore }> {
  const own: string[] = [];
  const prefix = relative(root, dir).split(sep).join("/");
  for (const name of IGNORE_FILES) {
    let text: string;
    try {
      text = await readFile(join(dir, name), "utf8");
    } catch {
      continue;
    }
    for (const line of text.split(/\r?\n/)) {
      const trimmed = line.trim();
      if (trimmed === "" || trimmed.startsWith("#")) continue;
      own.push(prefix === "" ? trimmed : rerooted(trimmed, prefix));
    }
  }
  const lines = own.length === 0 ? inherited : [...inherited, ...own];
  return { lines, matcher: ignore().add([...lines]) };
}

/** A rule of a nested ignore file, as seen from the walk's root. */
function rerooted(rule: string, prefix: string): string {
  const negated = rule.startsWith("!");
  const body = negated ? rule.slice(1) : rule;
  const anchored = body.startsWith("/") ? `${prefix}${body}` : body.includes("/") && !body.endsWith("/") ? `${prefix}/${body}` : `${prefix}/**/${body}`;
  return negated ? `!${anchored}` : anchored;
}

async function entryKind(entry: Dirent, path: string): Promise<"file" | "folder" | undefined> {
  if (entry.isFile()) return "file";
  if (entry.isDirectory()) return "folder";
  return entry.isSymbolicLink() ? kindOf(path) : undefined;
}

export async function kindOf(path: string): Promise<"file" | "folder" | undefined> {
  try {
    const info = await stat(path);
    return info.isFile() ? "file" : info.isDirectory() ? "folder" : undefined;
  } catch {
    return undefined;
  }
}
