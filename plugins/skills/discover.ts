/**
 * Finding SKILL.md files under the skill roots. A folder holding a SKILL.md is a skill and is
 * not searched further; other folders are searched recursively (hidden folders and
 * node_modules skipped, depth and folder count bounded). A `skill.md` or `Skill.md` makes no
 * skill (pi reads SKILL.md only): it is reported once instead of being skipped in silence. Symlinks are followed, a symlink back
 * into a folder already searched is reported as a loop, project roots stay inside the project.
 * Cheap to repeat (it runs for every listing): plain folders need no stat (their real path is
 * their parent's plus their name), and a folder known to be a skill is checked with one lstat
 * of its SKILL.md instead of a listing. Folders of one level are read concurrently; the result
 * keeps a stable, sorted order.
 */
import type { Dirent } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import { checkFile, checkFolder, describeFsError, type FileStamp, type ResourceRoot } from "../../lib/resource-files/index.js";

export interface SkillCandidate {
  /** Absolute path as found (symlinks kept, as the user named it). */
  path: string;
  realPath: string;
  stamp: FileStamp;
  root: ResourceRoot;
}

export const SKILL_FILE = "SKILL.md";
/** Below a root: deep enough for grouped skill collections, shallow enough to stop a runaway walk. */
export const MAX_SKILL_DEPTH = 6;
/** Folders searched per scan, across all roots. */
export const MAX_SKILL_FOLDERS = 10_000;

type Note = (subject: string, message: string) => void;

/**
 * Every SKILL.md under `roots`, in root order; problems go to `note` (subject: the path).
 * `skillFolders` (real paths of folders that held a SKILL.md) is read and updated: keep it
 * between scans to skip listing those folders again.
 */
export async function findSkillFiles(roots: readonly ResourceRoot[], note: Note, skillFolders = new Set<string>()): Promise<SkillCandidate[]> {
  const walk = new SkillWalk(note, skillFolders);
  const found: SkillCandidate[] = [];
  for (const root of roots) found.push(...(await walk.root(root)));
  return found;
}

class SkillWalk {
  readonly #visited = new Set<string>();
  #folders = 0;

  constructor(
    private readonly note: Note,
    private readonly skillFolders: Set<string>,
  ) {}

  async root(root: ResourceRoot): Promise<SkillCandidate[]> {
    const top = await checkFolder(root.path, root.confineTo);
    if (!top.ok) {
      // A root that does not exist is the normal case (no skills there).
      if (!top.missing || root.location === "path") this.note(root.path, `Skipped skills folder ${root.path}: ${top.problem}`);
      return [];
    }
    if (top.isFile) return this.#linkedFile(root.path, root);
    return this.#folder(root.path, top.realPath, root, 0);
  }

  async #folder(dir: string, realPath: string, root: ResourceRoot, depth: number): Promise<SkillCandidate[]> {
    if (this.#visited.has(realPath)) {
      this.note(dir, `Skipped skills folder ${dir}: a symlink loop (it leads back to ${realPath})`);
      return [];
    }
    this.#visited.add(realPath);
    if (++this.#folders > MAX_SKILL_FOLDERS) {
      this.note("skills:folder-limit", `Stopped searching for skills after ${MAX_SKILL_FOLDERS} folders (at ${dir}); point the skills setting at a narrower folder`);
      return [];
    }
    if (this.skillFolders.has(realPath)) {
      const known = await this.#knownSkill(dir, realPath, root);
      if (known) return known;
    }
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      this.note(dir, `Skipped skills folder ${dir}: ${describeFsError(error)}`);
      return [];
    }
    const skillFile = entries.find((entry) => entry.name === SKILL_FILE);
    if (skillFile) {
      this.skillFolders.add(realPath);
      const path = join(dir, SKILL_FILE);
      return skillFile.isFile() ? this.#plainFile(path, join(realPath, SKILL_FILE), root) : this.#linkedFile(path, root);
    }
    this.skillFolders.delete(realPath);
    // Otherwise a skill the user wrote would be missing with no word why.
    const nearMiss = entries.find((entry) => !entry.isDirectory() && entry.name.toLowerCase() === SKILL_FILE.toLowerCase());
    if (nearMiss) this.note(join(dir, nearMiss.name), `Skipped skill ${join(dir, nearMiss.name)}: a skill's file must be named ${SKILL_FILE}`);
    if (depth >= MAX_SKILL_DEPTH) return [];
    const children = entries
      .filter((entry) => (entry.isDirectory() || entry.isSymbolicLink()) && !entry.name.startsWith(".") && entry.name !== "node_modules")
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const nested = await Promise.all(children.map((entry) => this.#child(dir, realPath, entry, root, depth + 1)));
    return nested.flat();
  }

  async #child(dir: string, realDir: string, entry: Dirent, root: ResourceRoot, depth: number): Promise<SkillCandidate[]> {
    const child = join(dir, entry.name);
    // A plain folder inside a (confined) real folder is real and confined too: no stat needed.
    if (entry.isDirectory()) return this.#folder(child, join(realDir, entry.name), root, depth);
    const check = await checkFolder(child, root.confineTo);
    if (!check.ok) {
      this.note(child, `Skipped skills folder ${child}: ${check.problem}`);
      return [];
    }
    // A symlink to a file among skill folders is not a skill folder: ignored quietly.
    return check.isFile ? [] : this.#folder(child, check.realPath, root, depth);
  }

  /** A folder that held a SKILL.md last time: one lstat says whether it still does. Undefined: list it again. */
  async #knownSkill(dir: string, realPath: string, root: ResourceRoot): Promise<SkillCandidate[] | undefined> {
    const path = join(dir, SKILL_FILE);
    try {
      const stats = await lstat(path);
      if (!stats.isFile()) return this.#linkedFile(path, root);
      return [{ path, realPath: join(realPath, SKILL_FILE), stamp: { mtimeMs: stats.mtimeMs, size: stats.size, ino: stats.ino }, root }];
    } catch {
      this.skillFolders.delete(realPath);
      return undefined;
    }
  }

  async #plainFile(path: string, realPath: string, root: ResourceRoot): Promise<SkillCandidate[]> {
    try {
      const stats = await lstat(path);
      if (stats.isFile()) return [{ path, realPath, stamp: { mtimeMs: stats.mtimeMs, size: stats.size, ino: stats.ino }, root }];
    } catch {
      // Replaced or removed since the listing: the full check below says what it is now.
    }
    return this.#linkedFile(path, root);
  }

  /** A SKILL.md that may be a symlink or not a regular file: followed, confined and checked. */
  async #linkedFile(path: string, root: ResourceRoot): Promise<SkillCandidate[]> {
    const check = await checkFile(path, root.confineTo);
    if (!check.ok) {
      this.note(path, `Skipped skill ${path}: ${check.problem}`);
      return [];
    }
    return [{ path, realPath: check.realPath, stamp: check.stamp, root }];
  }
}
