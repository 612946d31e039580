/**
 * The selection patterns of manifests and of a settings entry's filters (pi's rules): plain
 * patterns keep what they match (all when there is none), `!pattern` drops matches, `+path` puts an
 * exact path back, `-path` drops an exact path whatever else said. A pattern is tried against the
 * path relative to the package, the file name and the absolute path; for a `SKILL.md`, also
 * against its folder (so a skill is named by its folder).
 */
import { basename, dirname, relative, sep } from "node:path";
import picomatch from "picomatch";

/** True for an entry that selects among files rather than naming one: `!x`, `+x`, `-x`. */
export function isOverride(entry: string): boolean {
  return entry.startsWith("!") || entry.startsWith("+") || entry.startsWith("-");
}

export function hasGlob(entry: string): boolean {
  return /[*?[\]{}]/.test(entry);
}

/** `files` (absolute) narrowed by `patterns`, in their original order. */
export function applyPatterns(files: readonly string[], patterns: readonly string[], root: string): string[] {
  const includes: string[] = [];
  const excludes: string[] = [];
  const forceIn: string[] = [];
  const forceOut: string[] = [];
  for (const pattern of patterns) {
    if (pattern.startsWith("+")) forceIn.push(pattern.slice(1));
    else if (pattern.startsWith("-")) forceOut.push(pattern.slice(1));
    else if (pattern.startsWith("!")) excludes.push(pattern.slice(1));
    else includes.push(pattern);
  }
  const matchInclude = matcher(includes);
  const matchExclude = matcher(excludes);
  const kept = new Set(files.filter((file) => (includes.length === 0 || matchInclude(file, root)) && !(excludes.length > 0 && matchExclude(file, root))));
  for (const file of files) if (forceIn.length > 0 && matchesExact(file, forceIn, root)) kept.add(file);
  return files.filter((file) => kept.has(file) && !(forceOut.length > 0 && matchesExact(file, forceOut, root)));
}

function matcher(patterns: readonly string[]): (file: string, root: string) => boolean {
  if (patterns.length === 0) return () => false;
  const test = picomatch(patterns.map(posix), { dot: true });
  return (file, root) => candidates(file, root, true).some((candidate) => test(candidate));
}

function matchesExact(file: string, patterns: readonly string[], root: string): boolean {
  const wanted = new Set(patterns.map((pattern) => posix(pattern.replace(/^\.[/\\]/, "")).replace(/\/+$/, "")));
  return candidates(file, root, false).some((candidate) => wanted.has(candidate));
}

/** The names a file answers to: relative, base name (globs only), absolute; a SKILL.md's folder too. */
function candidates(file: string, root: string, withName: boolean): string[] {
  const names = [posix(relative(root, file)), posix(file)];
  if (withName) names.push(basename(file));
  if (basename(file) === "SKILL.md") {
    const folder = dirname(file);
    names.push(posix(relative(root, folder)), posix(folder));
    if (withName) names.push(basename(folder));
  }
  return names;
}

function posix(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}
