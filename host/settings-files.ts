/**
 * Settings composed from the plugins that own them: the host validates the user file
 * (`<agent dir>/settings.json`) and the project file (`.atomic/settings.json`) against the
 * composition, reporting every error of both files at once (one line each, naming the file and
 * the key), drops what a project may not set, and merges (project wins; objects deep-merge).
 * Unknown keys are kept and ignored (settings files are shared with pi and newer versions), but
 * one that no plugin and no pi reads is reported with the nearest known key: it is likely a typo.
 */
import { constants as fsConstants } from "node:fs";
import { open } from "node:fs/promises";
import { z } from "zod";
import {
  deepMerge,
  defineSetting,
  ErrorCode,
  formatValidationIssues,
  KernelError,
  ONE_SHOT,
  type PluginDefinition,
  type SettingSource,
  type SettingSpec,
} from "../kernel/index.js";
import { describeJsonError } from "../lib/json-error/index.js";
import { parseJsonc } from "../lib/jsonc/index.js";
import { unknownSettings } from "./unknown-settings.js";

/** Keys the host itself reads (transport choice, plugin paths, trust). */
export const CORE_SETTINGS: Record<string, SettingSpec> = {
  mode: defineSetting(() => z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "a transport name"), {
    scope: "trusted",
    description: "Default transport, as --mode (a registered transport name, never a path).",
  }),
  plugins: defineSetting(() => z.array(z.string()), { scope: "user", description: "Extra plugins: built-in names or paths to .ts/.js modules." }),
  trustedProjects: defineSetting(() => z.array(z.string()), { scope: "user", description: "Project folders whose code (.atomic/extensions) and execution settings are trusted." }),
};

export interface ComposedSetting {
  key: string;
  spec: SettingSpec;
  owner: string;
}

/** Every declared key and its owner; two owners of one key fail naming both. */
export function composeSettings(plugins: readonly PluginDefinition[]): Map<string, ComposedSetting> {
  const composed = new Map<string, ComposedSetting>();
  const add = (owner: string, specs: Record<string, SettingSpec>) => {
    for (const [key, spec] of Object.entries(specs)) {
      const existing = composed.get(key);
      if (existing) throw new KernelError(ErrorCode.DUPLICATE, `Settings key "${key}" is declared by both "${existing.owner}" and "${owner}"`, { plugin: owner });
      composed.set(key, { key, spec, owner });
    }
  };
  add("kernel", CORE_SETTINGS);
  for (const plugin of plugins) if (plugin.settings) add(plugin.name, plugin.settings);
  return composed;
}

export interface RawSettingsFile {
  path: string;
  exists: boolean;
  value: Record<string, unknown>;
}

/**
 * Reads one settings file as JSON with `//` comments and trailing commas, as models.json (a
 * missing or empty file is `{}`); only regular files are read.
 */
export async function readRawSettings(path: string): Promise<RawSettingsFile> {
  let text: string;
  try {
    // O_NONBLOCK: a FIFO planted as settings.json must not hang startup (it is refused below).
    const handle = await open(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
    try {
      if (!(await handle.stat()).isFile()) throw new KernelError(ErrorCode.CONFIG_INVALID, `Cannot read settings file ${path}: not a regular file`);
      text = await handle.readFile("utf8");
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { path, exists: false, value: {} };
    if (error instanceof KernelError) throw error;
    throw new KernelError(ErrorCode.CONFIG_INVALID, `Cannot read settings file ${path}: ${(error as Error).message}`);
  }
  if (text.trim() === "") return { path, exists: true, value: {} };
  let json: unknown;
  try {
    json = parseJsonc(text);
  } catch (error) {
    throw new KernelError(ErrorCode.CONFIG_INVALID, `Invalid JSON in settings file ${path}: ${describeJsonError(text, error)}`);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new KernelError(ErrorCode.CONFIG_INVALID, `Invalid settings file ${path}: expected a JSON object`);
  }
  return { path, exists: true, value: json as Record<string, unknown> };
}

export interface CheckedSettingsFile {
  /** The file's value with its known keys parsed; undefined when one is invalid. */
  value?: Record<string, unknown>;
  /** One line per invalid value: `Invalid settings file <path>: Invalid <key>: expected <what>`. */
  problems: string[];
}

/** Validates one file's known keys, every error at once. */
export function checkSettingsFile(composed: Map<string, ComposedSetting>, file: RawSettingsFile): CheckedSettingsFile {
  // Most processes have no settings file: no schema is built then.
  if (Object.keys(file.value).length === 0) return { value: {}, problems: [] };
  const shape: Record<string, z.ZodType> = {};
  for (const key of Object.keys(file.value)) {
    const setting = composed.get(key);
    if (setting) shape[key] = setting.spec.schema();
  }
  const parsed = z.looseObject(shape).safeParse(file.value, ONE_SHOT);
  if (parsed.success) return { value: parsed.data as Record<string, unknown>, problems: [] };
  return { problems: formatValidationIssues(parsed.error).map((issue) => `Invalid settings file ${file.path}: ${issue}`) };
}

/** Validates one file's known keys; the error names the file and the key path of every invalid value. */
export function validateSettingsFile(composed: Map<string, ComposedSetting>, file: RawSettingsFile): Record<string, unknown> {
  const checked = checkSettingsFile(composed, file);
  if (!checked.value) throw settingsError(checked.problems);
  return checked.value;
}

/** One error for every problem found, a line each. */
function settingsError(problems: readonly string[]): KernelError {
  return new KernelError(ErrorCode.CONFIG_INVALID, problems.join("\n"));
}

export interface ResolvedSettings {
  settings: Record<string, unknown>;
  /** Where each top-level key's value came from (the last layer that set it). */
  sources: Record<string, SettingSource>;
  /** One line each, for stderr: keys a project may not set, and why. */
  notes: string[];
  /** Each file's validated keys, before the merge, and the overrides passed in. */
  layers: { user: Record<string, unknown>; project: Record<string, unknown>; override: Record<string, unknown> };
}

/** Keys nothing reads in the user and project files (reported even when a value is invalid). */
export function unknownSettingsOf(composed: Map<string, ComposedSetting>, files: { user: RawSettingsFile; project: RawSettingsFile }): string[] {
  return [files.user, ...(files.project.path === files.user.path ? [] : [files.project])].flatMap((file) => unknownSettings(composed, file));
}

/** Validates and merges user, project (filtered by scope and trust) and in-memory overrides. */
export function resolveSettings(
  composed: Map<string, ComposedSetting>,
  files: { user: RawSettingsFile; project: RawSettingsFile },
  options: { trusted: boolean; overrides?: Record<string, unknown> },
): ResolvedSettings {
  const user = checkSettingsFile(composed, files.user);
  const notes: string[] = [];
  // Keys a project may not set are dropped before validation: a cloned repository's bad value
  // for a key it may not set anyway must not stop startup.
  const allowed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(files.project.path === files.user.path ? {} : files.project.value)) {
    const scope = composed.get(key)?.spec.scope ?? "any";
    if (scope === "user" || (scope === "trusted" && !options.trusted)) {
      notes.push(
        scope === "user"
          ? `Ignored "${key}" in ${files.project.path}: it is honoured only in ${files.user.path}`
          : `Ignored "${key}" in ${files.project.path}: an untrusted project may not set it (pass --approve or add the folder to trustedProjects in ${files.user.path})`,
      );
    } else allowed[key] = value;
  }
  const project = checkSettingsFile(composed, { ...files.project, value: allowed });
  const overrides = options.overrides ? checkSettingsFile(composed, { path: "the settings passed in", exists: true, value: options.overrides }) : { value: {}, problems: [] };
  const problems = [...user.problems, ...project.problems, ...overrides.problems];
  if (problems.length > 0) throw settingsError(problems);
  const [userValue, projectValue, overrideValue] = [user.value!, project.value!, overrides.value!];
  const sources: Record<string, SettingSource> = {};
  for (const key of Object.keys(userValue)) sources[key] = "user";
  for (const key of Object.keys(projectValue)) sources[key] = "project";
  for (const key of Object.keys(overrideValue)) sources[key] = "override";
  return { settings: deepMerge(deepMerge(userValue, projectValue), overrideValue), sources, notes, layers: { user: userValue, project: projectValue, override: overrideValue } };
}

/** Objects merge key by key; arrays and scalars from `override` replace. */
