/**
 * The prompt templates currently on disk: `<name>.md` files (not searched recursively) in the
 * `prompts` setting's paths, `<cwd>/.atomic/prompts/`, `<agent dir>/prompts/` and paths
 * extensions add; the first of two with one name wins. Re-scanned on every request, parsed only
 * when changed; an unusable file is reported once on stderr and skipped.
 */
import type { Dirent } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import { basename, join } from "node:path";
import type { KernelConfig, Logger } from "../../kernel/index.js";
import {
  checkFile,
  checkFolder,
  cliRoots,
  describeFsError,
  discoveredRoots,
  FreshScan,
  OnceNotes,
  parseFrontmatter,
  projectRoot,
  provenanceOf,
  readResourceText,
  realFolder,
  settingRoots,
  StampedCache,
  stringField,
  type Checked,
  type FileStamp,
  type Provenance,
  type ResourceLocation,
  type ResourceRoot,
} from "../../lib/resource-files/index.js";

export interface PromptTemplate {
  name: string;
  description: string;
  path: string;
  location: ResourceLocation;
  /** How it was found (get_commands `sourceInfo`). */
  provenance: Provenance;
}

type Parsed = { ok: true; description: string } | { ok: false; problem: string };
interface Candidate {
  path: string;
  realPath: string;
  stamp: FileStamp;
  root: ResourceRoot;
}

/** A description taken from the body is its first non-empty line, cut to this length. */
const DESCRIPTION_FROM_BODY = 60;

export interface TemplateLibraryOptions {
  config: KernelConfig;
  log: Pick<Logger, "warn">;
  settingPaths: readonly string[] | undefined;
  discoveredPaths: () => Promise<readonly string[]>;
  /** Template files packages bring (the packages plugin), each with its package's location. */
  packageRoots?: () => Promise<readonly ResourceRoot[]>;
  /** `--prompt-template` paths (relative to the cwd): found first, and also with `discover: false`. */
  cliPaths?: readonly string[];
  /** False with `--no-prompt-templates`: only `cliPaths` are searched. */
  discover?: boolean;
}

export class TemplateLibrary {
  readonly #notes: OnceNotes;
  readonly #cache = new StampedCache<Parsed>();
  readonly #scan = new FreshScan(() => this.#load());
  #roots: Promise<ResourceRoot[]> | undefined;

  constructor(private readonly options: TemplateLibraryOptions) {
    this.#notes = new OnceNotes(options.log);
  }

  templates(): Promise<PromptTemplate[]> {
    return this.#scan.get();
  }

  /** The template text without frontmatter, read now. Throws when unreadable. */
  async body(template: PromptTemplate): Promise<string> {
    const read = await readResourceText(template.path);
    if (!read.ok) throw new Error(`Cannot read prompt template "${template.name}" at ${template.path}: ${read.problem}`);
    const parsed = await parseFrontmatter(read.text);
    if (!parsed.ok) throw new Error(`Cannot use prompt template "${template.name}" at ${template.path}: ${parsed.problem}`);
    return parsed.body.trim();
  }

  #rootList(): Promise<ResourceRoot[]> {
    return (this.#roots ??= (async () => {
      const { config } = this.options;
      const explicit = cliRoots(config, this.options.cliPaths);
      if (this.options.discover === false) return explicit;
      const project = await realFolder(await projectRoot(config.cwd));
      return [
        ...explicit,
        ...settingRoots(config, "prompts", this.options.settingPaths, project),
        { path: join(config.cwd, ".atomic", "prompts"), location: "project" as const, confineTo: project },
        { path: join(config.agentDir, "prompts"), location: "user" as const },
        ...((await this.options.packageRoots?.()) ?? []),
        ...discoveredRoots(config.cwd, await this.options.discoveredPaths()),
      ];
    })());
  }

  async #load(): Promise<PromptTemplate[]> {
    const roots = await this.#rootList();
    const candidates = (await Promise.all(roots.map((root) => this.#candidates(root)))).flat();
    const parsed = await Promise.all(candidates.map((candidate) => this.#parse(candidate)));
    this.#cache.sweep();
    const byName = new Map<string, PromptTemplate>();
    const seenFiles = new Set<string>();
    candidates.forEach((candidate, i) => {
      const result = parsed[i]!;
      if (seenFiles.has(candidate.realPath)) return;
      seenFiles.add(candidate.realPath);
      if (!result.ok) return this.#note(candidate.path, `Skipped prompt template ${candidate.path}: ${result.problem}`);
      const name = basename(candidate.path).slice(0, -".md".length);
      const winner = byName.get(name);
      if (winner) return this.#note(`${candidate.path}#name`, `Skipped prompt template ${candidate.path}: the name "${name}" is already used by ${winner.path}`);
      byName.set(name, { name, description: result.description, path: candidate.path, location: candidate.root.location, provenance: provenanceOf(candidate.root) });
    });
    return [...byName.values()];
  }

  /** A root folder's `*.md` files (sorted), or the root itself when it is a file. */
  async #candidates(root: ResourceRoot): Promise<Candidate[]> {
    const top = await checkFolder(root.path, root.confineTo);
    if (!top.ok) {
      if (!top.missing || root.location === "path") this.#note(root.path, `Skipped prompts folder ${root.path}: ${top.problem}`);
      return [];
    }
    if (top.isFile) {
      if (root.path.endsWith(".md")) return this.#checked([{ path: root.path }], root);
      this.#note(root.path, `Skipped prompt template ${root.path}: not a .md file`);
      return [];
    }
    let entries: Dirent[];
    try {
      entries = await readdir(root.path, { withFileTypes: true });
    } catch (error) {
      this.#note(root.path, `Skipped prompts folder ${root.path}: ${describeFsError(error)}`);
      return [];
    }
    const files = entries
      .filter((entry) => entry.name.endsWith(".md") && entry.name.length > 3 && !entry.isDirectory())
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      // A plain file in the real root folder is real (and confined) itself: no realpath needed.
      .map((entry) => ({ path: join(root.path, entry.name), ...(entry.isFile() ? { realPath: join(top.realPath, entry.name) } : {}) }));
    return this.#checked(files, root);
  }

  /** Stamps each file; symlinks and odd files get the full check (followed, confined, regular). */
  async #checked(files: { path: string; realPath?: string }[], root: ResourceRoot): Promise<Candidate[]> {
    const checked = await Promise.all(
      files.map((file) => (file.realPath !== undefined ? plainFile(file.path, file.realPath, root.confineTo) : checkFile(file.path, root.confineTo))),
    );
    const found: Candidate[] = [];
    files.forEach(({ path }, i) => {
      const check = checked[i]!;
      if (!check.ok) return this.#note(path, `Skipped prompt template ${path}: ${check.problem}`);
      if (/\s/.test(basename(path))) return this.#note(path, `Skipped prompt template ${path}: its name has spaces (it could not be invoked as /name)`);
      found.push({ path, realPath: check.realPath, stamp: check.stamp, root });
    });
    return found;
  }

  async #parse(candidate: Candidate): Promise<Parsed> {
    const cached = this.#cache.get(candidate.realPath, candidate.stamp);
    if (cached) return cached;
    this.#notes.clear(candidate.path);
    const read = await readResourceText(candidate.path);
    const result = read.ok ? await describeTemplate(read.text) : { ok: false as const, problem: read.problem };
    this.#cache.set(candidate.realPath, read.stamp ?? candidate.stamp, result);
    return result;
  }

  #note(subject: string, message: string): void {
    this.#notes.note(subject, message);
  }
}

/** A file the listing saw as plain: one lstat for its stamp (the full check if it changed kind since). */
async function plainFile(path: string, realPath: string, confineTo: string | undefined): Promise<Checked<{ realPath: string; stamp: FileStamp }>> {
  try {
    const stats = await lstat(path);
    if (stats.isFile()) return { ok: true, realPath, stamp: { mtimeMs: stats.mtimeMs, size: stats.size, ino: stats.ino } };
  } catch {
    // Gone or replaced since the listing: the full check reports what it is now.
  }
  return checkFile(path, confineTo);
}

/** The frontmatter `description`, else the body's first non-empty line (cut short). */
export async function describeTemplate(text: string): Promise<Parsed> {
  const parsed = await parseFrontmatter(text);
  if (!parsed.ok) return parsed;
  const described = stringField(parsed.data, "description");
  if (described !== undefined) return { ok: true, description: described };
  const line =
    parsed.body
      .split("\n")
      .map((candidate) => candidate.trim())
      .find((candidate) => candidate !== "") ?? "";
  return { ok: true, description: line.length > DESCRIPTION_FROM_BODY ? `${line.slice(0, DESCRIPTION_FROM_BODY)}...` : line };
}
