/** Whether an installed npm package still answers its source's version (semver ranges; a tag takes what is there). */
import semver from "semver";
import type { NpmSource } from "./source.js";

/** The npm version range a source asks for; undefined for a tag (`latest`, `next`) or no version. */
export function npmRange(source: NpmSource): string | undefined {
  if (source.version === undefined) return undefined;
  return semver.validRange(source.version) ?? undefined;
}

/** Whether an installed version still satisfies the source (a tag or no version: anything installed does). */
export function npmSatisfied(source: NpmSource, installed: string): boolean {
  const range = npmRange(source);
  return range === undefined || semver.satisfies(installed, range, { includePrerelease: true });
}
