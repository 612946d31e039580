/**
 * File listing for grep and find: tinyglobby does the crawl, `ignore` applies .gitignore files
 * with git's precedence (a deeper .gitignore overrides a shallower one for its subtree, and
 * nothing inside an ignored directory can be re-included). `.git` and `node_modules` are always
 * skipped. When the search root sits inside a git repository, .gitignore files between the
 * repository root and the search root apply too, as they would for `git status`.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join, posix, relative, sep } from "node:path";
import type { Ignore } from "ignore";
import { throwIfAborted } from "./paths.js";

const ALWAYS_SKIPPED = ["**/.git", "**/.git/**", "**/node_modules", "**/node_modules/**"];

interface IgnoreFile {
  /** Directory of the .gitignore, relative to the search root (POSIX, "" = the root itself). */
  dir: string;
  /** For .gitignore files above the root: the root's path relative to their directory. */
  rootFromDir: string | null;
  matcher: Ignore;
}

export interface ListOptions {
  signal?: AbortSignal;
  /** Also return directories (with a trailing `/`). */
  includeDirectories?: boolean;
}

/** A glob without a `/` matches file names at any depth, like rg/fd globs do. */
export function anyDepthGlob(pattern: string): string {
  return pattern.includes("/") ? pattern.replace(/^\.\//, "") : `**/${pattern}`;
}

/** Paths under `root` matching `patterns`, relative and POSIX, sorted, with gitignored ones removed. */
export async function listFiles(root: string, patterns: string[], options: ListOptions = {}): Promise<string[]> {
  const { signal } = options;
  throwIfAborted(signal);
  // Loaded on first use: keeps the crawler out of startup.
  const { glob } = await import("tinyglobby");
  const crawl = (globs: string[], onlyFiles: boolean) =>
    glob(globs, { cwd: root, dot: true, onlyFiles, followSymbolicLinks: false, ignore: ALWAYS_SKIPPED, expandDirectories: false, signal });
  let matches: string[];
  let gitignores: string[];
  try {
    [matches, gitignores] = await Promise.all([crawl(patterns, !options.includeDirectories), crawl(["**/.gitignore"], true)]);
  } catch (error) {
    throwIfAborted(signal);
    throw error;
  }
  throwIfAborted(signal);
  const filter = await GitignoreFilter.load(root, gitignores);
  return matches.filter((path) => !filter.ignores(path)).sort(compareCodepoints);
}

function compareCodepoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export class GitignoreFilter {
  readonly #files: IgnoreFile[];
  readonly #ignoredDirs = new Map<string, boolean>();

  private constructor(files: IgnoreFile[]) {
    // Shallow first, so deeper files get the last word, as in git.
    this.#files = files.sort((a, b) => depth(a) - depth(b));
  }

  static async load(root: string, gitignorePaths: string[]): Promise<GitignoreFilter> {
    const files: IgnoreFile[] = [];
    for (const path of gitignorePaths) {
      const dir = posix.dirname(path);
      files.push({ dir: dir === "." ? "" : dir, rootFromDir: null, matcher: await loadMatcher(join(root, path)) });
    }
    for (const ancestor of ancestorsWithinRepo(root)) {
      const path = join(ancestor, ".gitignore");
      if (!existsSync(path)) continue;
      const rootFromDir = relative(ancestor, root).split(sep).join("/");
      const matcher = await loadMatcher(path);
      // Searching inside an ignored directory on purpose (e.g. `dist`): its own rules would hide everything.
      if (matcher.test(`${rootFromDir}/`).ignored) continue;
      files.push({ dir: "", rootFromDir, matcher });
    }
    return new GitignoreFilter(files);
  }

  /** `path` is relative to the root, POSIX; directories end with `/`. */
  ignores(path: string): boolean {
    const isDirectory = path.endsWith("/");
    const clean = isDirectory ? path.slice(0, -1) : path;
    const parent = posix.dirname(clean);
    if (parent !== "." && this.#directoryIgnored(parent)) return true;
    return this.#matches(clean, isDirectory);
  }

  #directoryIgnored(dir: string): boolean {
    let cached = this.#ignoredDirs.get(dir);
    if (cached === undefined) {
      const parent = posix.dirname(dir);
      cached = (parent !== "." && this.#directoryIgnored(parent)) || this.#matches(dir, true);
      this.#ignoredDirs.set(dir, cached);
    }
    return cached;
  }

  /** Applies every .gitignore that covers `path`, shallowest first; the last decisive rule wins. */
  #matches(path: string, isDirectory: boolean): boolean {
    let ignored = false;
    for (const file of this.#files) {
      let relativePath: string;
      if (file.rootFromDir !== null) relativePath = file.rootFromDir ? `${file.rootFromDir}/${path}` : path;
      else if (file.dir === "") relativePath = path;
      else if (path.startsWith(`${file.dir}/`)) relativePath = path.slice(file.dir.length + 1);
      else continue;
      const result = file.matcher.test(isDirectory ? `${relativePath}/` : relativePath);
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored;
  }
}

function depth(file: IgnoreFile): number {
  // Ancestors of the root come before everything inside it.
  if (file.rootFromDir !== null) return -1 - file.rootFromDir.split("/").length;
  return file.dir === "" ? 0 : file.dir.split("/").length;
}

async function loadMatcher(path: string): Promise<Ignore> {
  const [text, { default: ignore }] = await Promise.all([readFile(path, "utf8").catch(() => ""), import("ignore")]);
  return ignore().add(text);
}

/** Directories strictly above `root` up to the enclosing git repository's root; none outside a repo. */
function ancestorsWithinRepo(root: string): string[] {
  const ancestors: string[] = [];
  if (existsSync(join(root, ".git"))) return ancestors;
  for (let dir = dirname(root); ; dir = dirname(dir)) {
    ancestors.push(dir);
    if (existsSync(join(dir, ".git"))) return ancestors;
    if (dirname(dir) === dir) return [];
  }
}
