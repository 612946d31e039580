/**
 * The `packages` lists of the two settings files, for the package commands (which run without
 * booting an agent): read with the project's trust decided as at startup, written through the
 * locked JSON writer. Entries are matched by package identity, so `npm:x@2` replaces `npm:x@1`
 * and a local path matches however it is spelled.
 */
import { readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { isTrustedProject, projectSettingsPath, userSettingsPath } from "../../kernel/index.js";
import { describeJsonError } from "../../lib/json-error/index.js";
import { parseJsonc } from "../../lib/jsonc/index.js";
import { updateJsonFile } from "../../lib/locked-json/index.js";
import { parseSource, sourceIdentity, type PackageSource } from "../../lib/packages/source.js";
import type { PackageSetting } from "./api.js";

export type SettingsScope = "user" | "project";

export interface SettingsPlace {
  scope: SettingsScope;
  file: string;
  /** Local sources in this file resolve from here. */
  base: string;
}

export function settingsPlace(scope: SettingsScope, agentDir: string, cwd: string): SettingsPlace {
  return scope === "user" ? { scope, file: userSettingsPath(agentDir), base: agentDir } : { scope, file: projectSettingsPath(cwd), base: join(cwd, ".atomic") };
}

/** A settings file as JSON (missing: `{}`); a file that is not a JSON object is an error naming it. */
export async function readSettings(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new Error(`Cannot read ${file}: ${(error as Error).message}`);
  }
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    // As startup reads it: `//` comments and trailing commas are allowed.
    value = parseJsonc(text);
  } catch (error) {
    throw new Error(`Invalid JSON in settings file ${file}: ${describeJsonError(text, error)}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`Invalid settings file ${file}: expected a JSON object`);
  return value as Record<string, unknown>;
}

/** The file's `packages` entries; anything but strings and `{source}` objects is an error naming the file. */
export function packageEntries(settings: Record<string, unknown>, file: string): PackageSetting[] {
  const list = settings.packages;
  if (list === undefined) return [];
  const valid =
    Array.isArray(list) &&
    list.every(
      (entry) => (typeof entry === "string" && entry !== "") || (typeof entry === "object" && entry !== null && typeof (entry as { source?: unknown }).source === "string"),
    );
  if (!valid) throw new Error(`Invalid settings file ${file}: Invalid packages: expected an array of sources or {source, ...} objects`);
  return list as PackageSetting[];
}

export function entrySource(entry: PackageSetting): string {
  return typeof entry === "string" ? entry : entry.source;
}

/** Whether the project in `cwd` is trusted, as at startup (`--approve`, or the user's trustedProjects). */
export async function projectTrusted(agentDir: string, cwd: string, approve: boolean, env: NodeJS.ProcessEnv): Promise<boolean> {
  const user = await readSettings(userSettingsPath(agentDir));
  const trusted = Array.isArray(user.trustedProjects) ? user.trustedProjects.filter((entry): entry is string => typeof entry === "string") : [];
  return isTrustedProject(cwd, trusted, approve, env);
}

/** Identity of an entry, or undefined when it does not parse. */
export function identityOf(entry: PackageSetting, base: string, env: NodeJS.ProcessEnv): string | undefined {
  try {
    return sourceIdentity(parseSource(entrySource(entry), base, env));
  } catch {
    return undefined;
  }
}

/** How a source is written into a settings file: local paths relative to the file's folder, as pi writes them. */
export function sourceForSettings(raw: string, source: PackageSource, place: SettingsPlace): string {
  if (source.type !== "local") return raw.trim();
  return relative(place.base, source.path) || ".";
}

/** Adds `written` to the file's packages (replacing an entry of the same package, keeping its filters); true when one was replaced. */
export async function addPackage(place: SettingsPlace, written: string, identity: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  let replaced = false;
  await updateJsonFile(place.file, (current) => {
    const entries = packageEntries(current, place.file);
    const next = entries.map((entry) => {
      if (replaced || identityOf(entry, place.base, env) !== identity) return entry;
      replaced = true;
      return typeof entry === "string" ? written : { ...entry, source: written };
    });
    if (!replaced) next.push(written);
    return { ...current, packages: next };
  });
  return replaced;
}

/** Removes the file's entries of this package; the entries removed. */
export async function removePackage(place: SettingsPlace, identity: string, env: NodeJS.ProcessEnv): Promise<PackageSetting[]> {
  const removed: PackageSetting[] = [];
  const current = packageEntries(await readSettings(place.file), place.file);
  if (!current.some((entry) => identityOf(entry, place.base, env) === identity)) return removed;
  await updateJsonFile(place.file, (settings) => {
    const entries = packageEntries(settings, place.file);
    const kept = entries.filter((entry) => (identityOf(entry, place.base, env) === identity ? (removed.push(entry), false) : true));
    return { ...settings, packages: kept };
  });
  return removed;
}
