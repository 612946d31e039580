/**
 * Settings keys that nothing reads: at the top level, keys no plugin declares and pi does not
 * read either (a file shared with pi holds pi's own keys, which are no mistake); inside a
 * declared object setting, keys its schema does not have (zod drops them without a word). Each
 * is named with the nearest known key, since it is most often a typo (`retyr`, `maxRetry`).
 */
import type { z } from "zod";
import { closest } from "../lib/closest/index.js";
import type { ComposedSetting, RawSettingsFile } from "./settings-files.js";

/** Top-level keys of pi's settings.json (pi 1.6 and 0.x) that no built-in plugin of Atomic reads. */
export const PI_ONLY_SETTINGS: ReadonlySet<string> = new Set([
  "modelThinkingLevels",
  "thinkingBudgets",
  "hideThinkingBlock",
  "showCacheMissNotices",
  "cacheWarming",
  "externalEditor",
  "doubleEscapeAction",
  "treeFilterMode",
  "defaultProjectTrust",
  "sessionShareDestination",
  "branchSummary",
  "theme",
  "quietStartup",
  "tuiMode",
  "fullscreenExitOutput",
  "fullscreenScrollbar",
  "fullscreenCopyOnSelect",
  "fullscreenWheelScrollLines",
  "editorPaddingX",
  "outputPad",
  "autocompleteMaxVisible",
  "showHardwareCursor",
  "terminal",
  "images",
  "markdown",
  "transport",
  "httpProxy",
  "httpIdleTimeoutMs",
  "websocketConnectTimeoutMs",
  "npmCommand",
  "selfUpdateCommand",
  "packages",
  "themes",
  "enableSkillCommands",
  "collapseChangelog",
  "enableInstallTelemetry",
  "enableAnalytics",
  "warnings",
  "lastChangelogVersion",
]);

/** One line per key nothing reads in this file: `Unknown setting "x" in <file> (did you mean "y"?): ignored`. */
export function unknownSettings(composed: ReadonlyMap<string, ComposedSetting>, file: RawSettingsFile): string[] {
  const lines: string[] = [];
  const report = (path: string, known: readonly string[], leaf: string, refused = false) => {
    const [near] = closest(known, leaf, { limit: 1 });
    const prefix = path.slice(0, path.length - leaf.length);
    const outcome = refused ? `"${prefix.slice(0, -1)}" takes no other key, so the file is refused` : "no plugin reads it, ignored";
    lines.push(`Unknown setting "${path}" in ${file.path}${near ? ` (did you mean "${prefix}${near}"?)` : ""}: ${outcome}`);
  };
  const known = [...composed.keys()];
  for (const [key, value] of Object.entries(file.value)) {
    const setting = composed.get(key);
    if (!setting) {
      if (!PI_ONLY_SETTINGS.has(key)) report(key, known, key);
      continue;
    }
    walk(setting.spec.schema(), value, key, report);
  }
  return lines;
}

/** Keys of `value` that the object schema (and the object schemas inside it) does not declare. */
function walk(schema: z.ZodType, value: unknown, path: string, report: (path: string, known: readonly string[], leaf: string, refused?: boolean) => void): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return;
  const object = objectShape(schema);
  if (!object) return;
  for (const [key, child] of Object.entries(value)) {
    const field = object.shape[key];
    if (field) walk(field, child, `${path}.${key}`, report);
    // A strict object (a security setting) refuses the file instead of ignoring the key.
    else report(`${path}.${key}`, Object.keys(object.shape), key, object.strict);
  }
}

/** The fields of a plain object schema (through optional, default, nullable...); undefined for one that takes any key. */
function objectShape(schema: z.ZodType): { shape: Record<string, z.ZodType>; strict: boolean } | undefined {
  let current: z.ZodType = schema;
  for (let depth = 0; depth < 8; depth++) {
    const def = (current as unknown as { def: { type: string; innerType?: z.ZodType; in?: z.ZodType; catchall?: z.ZodType } }).def;
    if (def.type === "object") {
      // A catchall (looseObject, passthrough) takes any key: nothing is unknown there.
      const strict = def.catchall !== undefined && (def.catchall as unknown as { def: { type: string } }).def.type === "never";
      if (def.catchall && !strict) return undefined;
      return { shape: (current as z.ZodObject).shape as Record<string, z.ZodType>, strict };
    }
    const inner = def.innerType ?? def.in;
    if (!inner) return undefined;
    current = inner;
  }
  return undefined;
}
