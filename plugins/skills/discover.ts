/**
 * Finding SKILL.md files under the skill roots. A folder holding a SKILL.md is a skill and is
 * not searched further; other folders are searched recursively (hidden folders and
 * node_modules skipped, depth and folder count bounded). Symlinks are followed, a symlink back
 * into a folder already searched is reported as a loop, project roots stay inside the project.
 * Folders of one level are read concurrently; the result keeps a stable, sorted order.
 */
import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
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

/** Every SKILL.md under `roots`, in root order; problems are passed to `note` (subject: the path). */
export async function findSkillFiles(roots: readonly ResourceRoot[], note: Note): Promise<SkillCandidate[]> {
  const walk = new SkillWalk(note);
  const found: SkillCandidate[] = [];
  for (const root of roots) found.push(...(await walk.root(root)));
  return found;
}

class SkillWalk {
  readonly #visited = new Set<string>();
  #folders = 0;

  constructor(private readonly note: Note) {}

  async root(root: ResourceRoot): Promise<SkillCandidate[]> {
    const top = await checkFolder(root.path, root.confineTo);
    if (!top.ok) {
      // A root that does not exist is the normal case (no skills there).
      if (!top.missing || root.location === "path") this.note(root.path, `Skipped skills folder ${root.path}: ${top.problem}`);
      return [];
    }
    if (top.isFile) return this.#file(root.path, root);
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
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      this.note(dir, `Skipped skills folder ${dir}: ${describeFsError(error)}`);
      return [];
    }
    if (entries.some((entry) => entry.name === SKILL_FILE)) return this.#file(join(dir, SKILL_FILE), root);
    if (depth >= MAX_SKILL_DEPTH) return [];
    const children = entries
      .filter((entry) => (entry.isDirectory() || entry.isSymbolicLink()) && !entry.name.startsWith(".") && entry.name !== "node_modules")
      .map((entry) => entry.name)
      .sort();
    const checked = await Promise.all(children.map((name) => checkFolder(join(dir, name), root.confineTo)));
    const nested = await Promise.all(
      children.map((name, i) => {
        const child = join(dir, name);
        const check = checked[i]!;
        if (!check.ok) {
          this.note(child, `Skipped skills folder ${child}: ${check.problem}`);
          return [];
        }
        // A symlink to a file among skill folders is not a skill folder: ignored quietly.
        return check.isFile ? [] : this.#folder(child, check.realPath, root, depth + 1);
      }),
    );
    return nested.flat();
  }

  async #file(path: string, root: ResourceRoot): Promise<SkillCandidate[]> {
    const check = await checkFile(path, root.confineTo);
    if (!check.ok) {
      this.note(path, `Skipped skill ${path}: ${check.problem}`);
      return [];
    }
    return [{ path, realPath: check.realPath, stamp: check.stamp, root }];
  }
}
