/**
 * What models.json says beyond what startup checks, for `atomic config` and for the error of a
 * model whose API no provider serves: where a model's `api` was set, `api` values no provider
 * serves (with the one meant: `openai-completion` for `openai-completions`), and keys that are a
 * slip of a known key (`baseURL` for `baseUrl`), which the file's loose objects otherwise keep and
 * ignore without a word. Startup does none of it: it runs when `atomic config` asks, or on that
 * error. Also the notes on `compat` keys no adapter reads, which the registry gives as providers
 * register.
 */
import { readFile } from "node:fs/promises";
import { didYouMean, nearestName } from "../../lib/closest/index.js";
import { parseJsonc } from "../../lib/jsonc/index.js";
import type { Model } from "../../lib/llm/index.js";
import { PI_COMPAT_NOT_APPLIED, unknownCompatKeys } from "../../lib/provider-kit/index.js";
import { KNOWN_MODEL, KNOWN_PROVIDER } from "./models-json-plain.js";
import type { ProviderConfig } from "./models-json-schema.js";

const KNOWN_OVERRIDE: ReadonlySet<string> = new Set([...KNOWN_MODEL].filter((key) => key !== "id"));

/** The models.json key that gave `model` its API, and the file (`providers.local.api in <path>`); undefined when none did. */
export function apiOrigin(config: ProviderConfig | undefined, model: Pick<Model, "provider" | "id" | "api">, path: string): string | undefined {
  if (!config) return undefined;
  const at = `providers.${model.provider}`;
  // As applyProviderConfig applies them: a models entry over an override over the provider's own.
  const entry = config.models?.find((candidate) => candidate.id === model.id);
  const key =
    entry?.api !== undefined
      ? entry.api === model.api && `the "api" of model "${model.id}" in ${at}.models`
      : config.modelOverrides?.[model.id]?.api !== undefined
        ? config.modelOverrides[model.id]!.api === model.api && `${at}.modelOverrides.${model.id}.api`
        : config.api === model.api && `${at}.api`;
  return key ? `${key} in ${path}` : undefined;
}

/**
 * The problems of the file at `path` that startup does not look for, each naming the file and
 * the key path: an `api` none of `apis` is, a key that is a slip of a known one. A file that is
 * missing or cannot be read as a whole gives none here (startup reports it).
 */
export async function checkModelsJson(path: string, apis: readonly string[]): Promise<string[]> {
  let file: unknown;
  try {
    file = parseJsonc((await readFile(path, "utf8")).replace(/^\uFEFF/, ""));
  } catch {
    return [];
  }
  const providers = isRecord(file) ? file.providers : undefined;
  if (!isRecord(providers)) return [];
  const problems: string[] = [];
  const check = (entry: unknown, at: string, known: ReadonlySet<string>) => {
    if (!isRecord(entry)) return;
    for (const key of Object.keys(entry)) {
      const meant = known.has(key) ? undefined : nearestName([...known], key);
      if (meant) problems.push(`Unknown key "${at}.${key}" in ${path} (did you mean "${meant}"?): Atomic does not read it, ignored`);
    }
    const api = entry.api;
    if (typeof api === "string" && api !== "" && !apis.includes(api))
      problems.push(`Invalid models file ${path}: Invalid ${at}.api: "${api}" is no API a provider serves; expected one of ${apis.join(", ")}.${didYouMean(apis, api)}`);
  };
  for (const [name, block] of Object.entries(providers)) {
    const at = `providers.${name}`;
    check(block, at, KNOWN_PROVIDER);
    if (!isRecord(block)) continue;
    if (Array.isArray(block.models)) block.models.forEach((entry, index) => check(entry, `${at}.models.${index}`, KNOWN_MODEL));
    if (isRecord(block.modelOverrides)) for (const [id, entry] of Object.entries(block.modelOverrides)) check(entry, `${at}.modelOverrides.${id}`, KNOWN_OVERRIDE);
  }
  return problems;
}

/** One note per `compat` key no adapter reads (`said`: the keys already noted, updated). */
export function compatNotes(provider: string, models: readonly Model[], path: string, said: Set<string>): string[] {
  const notes: string[] = [];
  for (const model of models) {
    for (const key of unknownCompatKeys(model.api, model.compat)) {
      if (said.has(key)) continue;
      said.add(key);
      const why = PI_COMPAT_NOT_APPLIED[key];
      notes.push(
        why
          ? `${key} for provider ${provider} (${model.api}) in ${path} is ignored: ${why}.`
          : `Unknown compat key "${key}" for provider ${provider} (${model.api}) in ${path}: no adapter reads it, so it is ignored.`,
      );
    }
  }
  return notes;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
