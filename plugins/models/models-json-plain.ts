/**
 * models.json's common shapes checked without zod. Building the zod schemas of models.json costs
 * a start ~10-15 ms (dozens of schema objects, on the way to the first token of every start with
 * a models.json); a provider block of plain fields (a base URL, an API, a key, headers, models
 * with ids, names, limits and prices) is checked here instead and gives the very value the schemas
 * would. Anything else (a field this does not check, a value it does not vouch for) returns
 * undefined and goes through the schemas, so their errors are the only ones.
 */
import type { ModelEntryConfig, ProviderConfig } from "./models-json-schema.js";

type Check = (value: unknown) => boolean;

const nonEmptyString: Check = (value) => typeof value === "string" && value.length > 0;
const string: Check = (value) => typeof value === "string";
const boolean: Check = (value) => typeof value === "boolean";
const positiveInt: Check = (value) => Number.isSafeInteger(value) && (value as number) > 0;
const rate: Check = (value) => typeof value === "number" && Number.isFinite(value) && value >= 0;

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && !Object.hasOwn(value, "__proto__");
}

/** A record of strings (headers) or of anything (compat), copied as the schemas copy it. */
function record(values: Check | undefined): (value: unknown) => Record<string, unknown> | undefined {
  return (value) => {
    if (!isPlainRecord(value)) return undefined;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (values && !values(item)) return undefined;
      out[key] = item;
    }
    return out;
  };
}

const headers = record(string);
const compat = record(undefined);

/** `cost` without tiers: a fresh object in the schema's field order, unknown fields refused. */
function cost(value: unknown): Record<string, unknown> | undefined {
  if (!isPlainRecord(value)) return undefined;
  for (const key of Object.keys(value)) if (!COST_FIELDS.includes(key)) return undefined;
  if (!rate(value.input) || !rate(value.output)) return undefined;
  const out: Record<string, unknown> = { input: value.input, output: value.output };
  for (const key of ["cacheRead", "cacheWrite"] as const) {
    if (value[key] === undefined) continue;
    if (!rate(value[key])) return undefined;
    out[key] = value[key];
  }
  return out;
}
const COST_FIELDS = ["input", "output", "cacheRead", "cacheWrite"];

const inputKinds = (value: unknown): unknown[] | undefined => (Array.isArray(value) && value.every((kind) => kind === "text" || kind === "image") ? [...value] : undefined);

/** A field: how to check it (true: kept as it is) or to copy it (undefined: not vouched for). */
type Field = Check | ((value: unknown) => unknown);

/**
 * Each shape's fields in the schemas' order (their output lists the known fields in that order,
 * then the unknown ones in the file's). `null`: a field of the schema this module leaves to it.
 */
const PROVIDER_FIELDS: [string, Field | null, "copy"?][] = [
  ["name", nonEmptyString],
  ["baseUrl", nonEmptyString],
  ["api", nonEmptyString],
  ["apiKey", string],
  ["authHeader", boolean],
  ["headers", headers, "copy"],
  ["compat", compat, "copy"],
  ["oauth", nonEmptyString],
  ["models", null],
  ["modelOverrides", null],
];

const MODEL_FIELDS: [string, Field | null, "copy"?][] = [
  ["name", nonEmptyString],
  ["api", nonEmptyString],
  ["baseUrl", nonEmptyString],
  ["reasoning", boolean],
  ["input", inputKinds, "copy"],
  ["contextWindow", positiveInt],
  ["maxTokens", positiveInt],
  ["headers", headers, "copy"],
  ["compat", compat, "copy"],
  ["thinkingLevels", null],
  ["thinkingLevelMap", null],
  ["costTiers", null],
  ["samplingParams", null],
  ["samplingParamsByThinkingLevel", null],
  ["promptCache", null],
  ["inputLimits", null],
  ["id", nonEmptyString],
  ["cost", cost, "copy"],
];

/** The keys a provider block and a model entry have (a model override: the model's but `id`). */
export const KNOWN_PROVIDER: ReadonlySet<string> = new Set(PROVIDER_FIELDS.map(([key]) => key));
export const KNOWN_MODEL: ReadonlySet<string> = new Set(MODEL_FIELDS.map(([key]) => key));

/** A loose object of `fields`: the schemas' output, or undefined when a field is not vouched for. */
function looseObject(value: unknown, fields: typeof PROVIDER_FIELDS, known: ReadonlySet<string>, skip: ReadonlySet<string> = NONE): Record<string, unknown> | undefined {
  if (!isPlainRecord(value)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, field, copy] of fields) {
    if (skip.has(key) || value[key] === undefined) {
      if (Object.hasOwn(value, key) && !skip.has(key)) return undefined;
      continue;
    }
    if (!field) return undefined;
    if (copy) {
      const copied = (field as (value: unknown) => unknown)(value[key]);
      if (copied === undefined) return undefined;
      out[key] = copied;
    } else if ((field as Check)(value[key])) out[key] = value[key];
    else return undefined;
  }
  for (const [key, item] of Object.entries(value)) if (!known.has(key)) out[key] = item;
  return out;
}
const NONE: ReadonlySet<string> = new Set();
const MODEL_LISTS: ReadonlySet<string> = new Set(["models", "modelOverrides"]);

/**
 * The provider block as the schemas would give it when every part of it is one this module
 * checks (no `modelOverrides`; models of plain fields), else undefined.
 */
export function plainProvider(raw: unknown): ProviderConfig | undefined {
  const own = looseObject(raw, PROVIDER_FIELDS, KNOWN_PROVIDER, MODEL_LISTS);
  if (!own) return undefined;
  const { models, modelOverrides } = raw as { models?: unknown; modelOverrides?: unknown };
  if (Object.hasOwn(raw as object, "modelOverrides") || modelOverrides !== undefined) return undefined;
  if (models === undefined) return Object.hasOwn(raw as object, "models") ? undefined : (own as ProviderConfig);
  if (!Array.isArray(models)) return undefined;
  const entries: ModelEntryConfig[] = [];
  for (const entry of models) {
    const model = looseObject(entry, MODEL_FIELDS, KNOWN_MODEL);
    if (!model || model.id === undefined) return undefined;
    entries.push(model as ModelEntryConfig);
  }
  // After every other field, as checkProvider (models-json.ts) assembles it from the schemas' output.
  return { ...own, models: entries } as ProviderConfig;
}
