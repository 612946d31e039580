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
  const kept: string[] = [];
  for (let i = 0; i < matches.length; i++) {
    // A huge tree takes a while to filter: let other work (stdin, timers, abort) in between.
    if (i > 0 && i % FILTER_SLICE === 0) {
      await new Promise((resolve) => setImmediate(resolve));
      throwIfAborted(signal);
    }
    if (!filter.ignores(matches[i]!)) kept.push(matches[i]!);
  }
  return kept.sort(compareCodepoints);
}

const FILTER_SLICE = 5000;

function compareCodepoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export class GitignoreFilter {
  /** .gitignore files above the search root, shallow first. */
  readonly #above: IgnoreFile[];
  /** .gitignore files inside the root, by directory ("" = the root). */
  readonly #byDir = new Map<string, IgnoreFile>();
  readonly #ignoredDirs = new Map<string, boolean>();

  private constructor(files: IgnoreFile[]) {
    // Shallow first, so deeper files get the last word, as in git.
    this.#above = files.filter((file) => file.rootFromDir !== null).sort((a, b) => depth(a) - depth(b));
    for (const file of files) if (file.rootFromDir === null) this.#byDir.set(file.dir, file);
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
    const apply = (file: IgnoreFile, relativePath: string) => {
      const result = file.matcher.test(isDirectory ? `${relativePath}/` : relativePath);
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    };
    for (const file of this.#above) apply(file, file.rootFromDir ? `${file.rootFromDir}/${path}` : path);
    // Only the directories on the path can hold a .gitignore that covers it: a few lookups per path.
    const atRoot = this.#byDir.get("");
    if (atRoot) apply(atRoot, path);
    for (let slash = path.indexOf("/"); slash !== -1; slash = path.indexOf("/", slash + 1)) {
      const file = this.#byDir.get(path.slice(0, slash));
      if (file) apply(file, path.slice(slash + 1));
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
