/**
 * The skills currently on disk. Every request (listing, `/skill:` input, system prompt) re-scans
 * the roots, so a skill added, edited or removed is seen without a restart; files are re-parsed
 * only when their stamp changed. The first of two skills with one name wins; the other, and
 * every unusable file, is reported once on stderr and skipped.
 */
import { dirname, join } from "node:path";
import type { KernelConfig, Logger } from "../../kernel/index.js";
import {
  cliRoots,
  discoveredRoots,
  FreshScan,
  OnceNotes,
  projectAncestry,
  projectRoot,
  readResourceText,
  provenanceOf,
  realFolder,
  settingRoots,
  StampedCache,
  type Provenance,
  type ResourceLocation,
  type ResourceRoot,
} from "../../lib/resource-files/index.js";
import { findSkillFiles, type SkillCandidate } from "./discover.js";
import { MAX_DESCRIPTION, parseSkillFile, skillBody, type SkillMeta } from "./skill-file.js";

export interface Skill extends SkillMeta {
  /** The SKILL.md, absolute, as found. */
  path: string;
  baseDir: string;
  location: ResourceLocation;
  /** How it was found (get_commands `sourceInfo`). */
  provenance: Provenance;
}

type Parsed = { ok: true; meta: SkillMeta } | { ok: false; problem: string };

export interface SkillLibraryOptions {
  config: KernelConfig;
  log: Pick<Logger, "warn">;
  /** The `skills` setting. */
  settingPaths: readonly string[] | undefined;
  /** Paths extensions add (resources_discover). */
  discoveredPaths: () => Promise<readonly string[]>;
  /** Skill files packages bring (the packages plugin), each with its package's location. */
  packageRoots?: () => Promise<readonly ResourceRoot[]>;
  /** `--skill` paths (relative to the cwd): found first, and also with `discover: false`. */
  cliPaths?: readonly string[];
  /** False with `--no-skills`: only `cliPaths` are searched. */
  discover?: boolean;
}

export class SkillLibrary {
  readonly #notes: OnceNotes;
  readonly #cache = new StampedCache<Parsed>();
  readonly #scan = new FreshScan(() => this.#load());
  /** Real paths of folders that held a SKILL.md: re-checked with one lstat instead of a listing. */
  readonly #skillFolders = new Set<string>();
  #roots: Promise<ResourceRoot[]> | undefined;

  constructor(private readonly options: SkillLibraryOptions) {
    this.#notes = new OnceNotes(options.log);
  }

  /** Every usable skill, first-found wins per name. */
  skills(): Promise<Skill[]> {
    return this.#scan.get();
  }

  /** The file's instructions, read now (so an edit since the last scan is used). Throws when unreadable. */
  async body(skill: Skill): Promise<string> {
    const read = await readResourceText(skill.path);
    if (!read.ok) throw new Error(`Cannot read skill "${skill.name}" at ${skill.path}: ${read.problem}`);
    return skillBody(read.text);
  }

  /** `--skill` paths, settings paths, project folders (cwd up to the repository root), the agent dir, packages, then extension paths. */
  #rootList(): Promise<ResourceRoot[]> {
    return (this.#roots ??= (async () => {
      const { config } = this.options;
      const explicit = cliRoots(config, this.options.cliPaths);
      if (this.options.discover === false) return explicit;
      const project = await realFolder(await projectRoot(config.cwd));
      const ancestry = await projectAncestry(config.cwd);
      return [
        ...explicit,
        ...settingRoots(config, "skills", this.options.settingPaths, project),
        ...ancestry.map((dir) => ({ path: join(dir, ".atomic", "skills"), location: "project" as const, confineTo: project })),
        { path: join(config.agentDir, "skills"), location: "user" as const },
        ...((await this.options.packageRoots?.()) ?? []),
        ...discoveredRoots(config.cwd, await this.options.discoveredPaths()),
      ];
    })());
  }

  async #load(): Promise<Skill[]> {
    const note = (subject: string, message: string) => this.#notes.note(subject, message);
    const candidates = await findSkillFiles(await this.#rootList(), note, this.#skillFolders);
    const parsed = await Promise.all(candidates.map((candidate) => this.#parse(candidate)));
    this.#cache.sweep();
    const byName = new Map<string, Skill>();
    const seenFiles = new Set<string>();
    const skills: Skill[] = [];
    candidates.forEach((candidate, i) => {
      const result = parsed[i]!;
      // The same file reached twice (a symlink, overlapping roots) is one skill.
      if (seenFiles.has(candidate.realPath)) return;
      seenFiles.add(candidate.realPath);
      if (!result.ok) return note(candidate.path, `Skipped skill ${candidate.path}: ${result.problem}`);
      const winner = byName.get(result.meta.name);
      if (winner) return note(`${candidate.path}#name`, `Skipped skill ${candidate.path}: the name "${result.meta.name}" is already used by ${winner.path}`);
      if (result.meta.cutFrom !== undefined) {
        note(`${candidate.path}#description`, `Skill ${candidate.path}: its description is ${result.meta.cutFrom} characters long; only the first ${MAX_DESCRIPTION} are used`);
      }
      const skill: Skill = { ...result.meta, path: candidate.path, baseDir: dirname(candidate.path), location: candidate.root.location, provenance: provenanceOf(candidate.root) };
      byName.set(skill.name, skill);
      skills.push(skill);
    });
    return skills;
  }

  async #parse(candidate: SkillCandidate): Promise<Parsed> {
    const cached = this.#cache.get(candidate.realPath, candidate.stamp);
    if (cached) return cached;
    // A changed file may have been fixed: its next problem is worth saying again.
    this.#notes.clear(candidate.path);
    const read = await readResourceText(candidate.path);
    const result: Parsed = read.ok ? await parseSkillFile(read.text, candidate.path) : { ok: false, problem: read.problem };
    this.#cache.set(candidate.realPath, read.stamp ?? candidate.stamp, result);
    return result;
  }
}
