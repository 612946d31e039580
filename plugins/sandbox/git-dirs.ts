/**
 * The git plumbing in a writable folder that the user's git follows later, outside the sandbox,
 * found when the sandbox starts: the folder's git dir (its `.git`, or the one a `.git` file
 * names), its common dir (`commondir`), its linked worktrees' and its submodules' git dirs (those
 * under `modules/`, and those of the work trees `.gitmodules` lists, embedded ones included).
 * Each is pinned: it stays writable (git commit must work) but becomes a mount point, so it
 * cannot be moved aside and replaced by a copy with a config of the model's. Inside each, what
 * runs code or tells git where to look stays read-only; so do `.git` files (the folder's, its
 * submodules'), which would otherwise send git to another git dir.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { realPathOf } from "./real-path.js";

/** Read from a git dir: the config and hooks run code; `commondir` moves where both are read from. */
export const GIT_DIR_PROTECTED = ["config", "config.worktree", "hooks", "commondir"];
/** Submodules' git dirs nest (`modules/a/b`, a submodule's own submodules); a bound keeps a strange tree from stalling the start. */
const MAX_DEPTH = 8;

export interface GitPlumbing {
  /** Real git dirs, each before the ones inside it. */
  pinned: string[];
  /** Real paths that stay read-only; some may not exist (the file tools refuse them by name all the same). */
  protectedPaths: string[];
}

export async function gitPlumbing(root: string): Promise<GitPlumbing> {
  const found: GitPlumbing = { pinned: [], protectedPaths: [] };
  await addWorkTree(root, found, new Set(), 0);
  found.pinned.sort((a, b) => a.length - b.length);
  return found;
}

/** A work tree's git dir, then its submodules' work trees (`git status` runs git in each). */
async function addWorkTree(workTree: string, found: GitPlumbing, seen: Set<string>, depth: number): Promise<void> {
  if (depth > MAX_DEPTH) return;
  const gitDir = await gitDirOf(join(workTree, ".git"), found);
  if (gitDir) await addGitDir(gitDir, found, seen, depth);
  const listed = (await readFile(join(workTree, ".gitmodules"), "utf8").catch(absent)) ?? "";
  for (const path of submodulePaths(listed)) await addWorkTree(resolve(workTree, path), found, seen, depth + 1);
}

/** The git dir a `.git` leads to: itself, or what its `gitdir:` line names (the file itself is protected). */
async function gitDirOf(dotGit: string, found: GitPlumbing): Promise<string | undefined> {
  const info = await stat(dotGit).catch(absent);
  if (info?.isDirectory()) return realPathOf(dotGit);
  if (!info?.isFile()) return undefined;
  found.protectedPaths.push(await realPathOf(dotGit));
  const named = /^gitdir:[ \t]*(.+?)[ \t]*$/m.exec(await readFile(dotGit, "utf8"))?.[1];
  return named ? realPathOf(resolve(dirname(dotGit), named)) : undefined;
}

async function addGitDir(dir: string, found: GitPlumbing, seen: Set<string>, depth: number): Promise<void> {
  if (seen.has(dir) || depth > MAX_DEPTH) return;
  seen.add(dir);
  found.pinned.push(dir);
  found.protectedPaths.push(...GIT_DIR_PROTECTED.map((name) => join(dir, name)));
  const common = (await readFile(join(dir, "commondir"), "utf8").catch(absent))?.trim();
  if (common) await addGitDir(await realPathOf(resolve(dir, common)), found, seen, depth + 1);
  for (const worktree of await subfolders(join(dir, "worktrees"))) await addGitDir(worktree, found, seen, depth + 1);
  // Also those of submodules not checked out now: a checkout later would use them as they are.
  for (const module of await moduleGitDirs(join(dir, "modules"), depth)) await addGitDir(module, found, seen, depth + 1);
}

/** Under `modules/`, a folder with a HEAD is a submodule's git dir; others are parts of a name with slashes. */
async function moduleGitDirs(dir: string, depth: number): Promise<string[]> {
  if (depth > MAX_DEPTH) return [];
  const found: string[] = [];
  for (const folder of await subfolders(dir)) {
    if (await stat(join(folder, "HEAD")).catch(absent)) found.push(folder);
    else found.push(...(await moduleGitDirs(folder, depth + 1)));
  }
  return found;
}

async function subfolders(dir: string): Promise<string[]> {
  const entries = (await readdir(dir, { withFileTypes: true }).catch(absent)) ?? [];
  return Promise.all(entries.filter((entry) => entry.isDirectory()).map((entry) => realPathOf(join(dir, entry.name))));
}

/** The `path` of each submodule in a `.gitmodules`' text (the plain form git itself writes). */
export function submodulePaths(gitmodules: string): string[] {
  return [...gitmodules.matchAll(/^\s*path\s*=\s*(.*?)\s*$/gim)].map((match) => match[1]!.replace(/^"(.*)"$/, "$1")).filter((path) => path !== "");
}

/** Only a path that is not there counts as absent; any other error stops the sandbox from starting (it fails closed). */
function absent(error: NodeJS.ErrnoException): undefined {
  if (error.code === "ENOENT" || error.code === "ENOTDIR") return undefined;
  throw error;
}
