/**
 * `<agent dir>/models.json`, compatible with pi's format: custom providers (any OpenAI-compatible
 * server, a proxy, a local model) and patches to built-in ones. Validated with zod; a bad file is
 * reported naming the file and the key, and the built-in catalog stays usable.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { deepMerge, ONE_SHOT, formatValidationError } from "../../kernel/index.js";
import { THINKING_LEVELS, type Model } from "../../lib/llm/index.js";
import { levelsOfMap, type CatalogModel } from "../../lib/provider-kit/index.js";
import type { ProviderRegistration } from "./api.js";

/** The schemas, built on first use (most processes have no models.json). */
function buildSchemas() {
  const Cost = z.object({
    input: z.number().min(0),
    output: z.number().min(0),
    cacheRead: z.number().min(0).optional(),
    cacheWrite: z.number().min(0).optional(),
  });
  const Headers = z.record(z.string(), z.string());
  const Compat = z.record(z.string(), z.unknown());
  const CostTier = z.object({ aboveInputTokens: z.number().int().positive(), cost: Cost });
  const ThinkingLevelMap = z.partialRecord(z.enum(THINKING_LEVELS), z.string().min(1).nullable());

  const ModelPatch = z.looseObject({
    name: z.string().optional(),
    api: z.string().min(1).optional(),
    baseUrl: z.string().min(1).optional(),
    reasoning: z.boolean().optional(),
    input: z.array(z.enum(["text", "image"])).optional(),
    cost: Cost.optional(),
    contextWindow: z.number().int().positive().optional(),
    maxTokens: z.number().int().positive().optional(),
    headers: Headers.optional(),
    compat: Compat.optional(),
    thinkingLevels: z.array(z.enum(THINKING_LEVELS)).min(1).optional(),
    /** pi's level -> provider value map; `null` removes a level. */
    thinkingLevelMap: ThinkingLevelMap.optional(),
    costTiers: z.array(CostTier).optional(),
  });
  const ModelEntry = ModelPatch.extend({ id: z.string().min(1) });

  const ProviderEntry = z.looseObject({
    baseUrl: z.string().min(1).optional(),
    api: z.string().min(1).optional(),
    apiKey: z.string().optional(),
    /** Also send the key as `Authorization: Bearer <key>` (proxies that want it there). */
    authHeader: z.boolean().optional(),
    headers: Headers.optional(),
    compat: Compat.optional(),
    models: z.array(ModelEntry).optional(),
    /** Per-model patches of existing (built-in) models, keyed by model id. */
    modelOverrides: z.record(z.string(), ModelPatch).optional(),
  });

  return { ProviderEntry, ModelPatch, ModelsFile: z.object({ providers: z.record(z.string(), ProviderEntry) }) };
}

let schemas: ReturnType<typeof buildSchemas> | undefined;
const modelsSchemas = () => (schemas ??= buildSchemas());

export type ProviderConfig = z.output<ReturnType<typeof buildSchemas>["ProviderEntry"]>;
export type ModelsFile = z.output<ReturnType<typeof buildSchemas>["ModelsFile"]>;

export function modelsJsonPath(agentDir: string): string {
  return join(agentDir, "models.json");
}

export interface ModelsJsonResult {
  file?: ModelsFile;
  /** A human-readable problem naming the file and the key; the file is then ignored. */
  error?: string;
}

export function parseModelsJson(text: string, path: string): ModelsJsonResult {
  if (text.trim() === "") return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { error: `Invalid JSON in ${path}: ${(error as Error).message}` };
  }
  const parsed = modelsSchemas().ModelsFile.safeParse(json, ONE_SHOT);
  if (!parsed.success) return { error: `Invalid models file ${path}: ${formatValidationError(parsed.error)}` };
  return { file: parsed.data };
}

export async function readModelsJson(path: string): Promise<ModelsJsonResult> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    return { error: `Cannot read ${path}: ${(error as Error).message}` };
  }
  return parseModelsJson(text, path);
}

/** Why a models.json provider cannot be registered as a new (custom) provider, if it cannot. */
export function customProviderProblem(name: string, config: ProviderConfig): string | undefined {
  if (!config.models || config.models.length === 0) return undefined;
  if (!config.baseUrl && config.models.some((m) => !m.baseUrl)) return `providers.${name}.baseUrl is required for a custom provider`;
  const index = config.models.findIndex((m) => !m.api && !config.api);
  if (index >= 0) return `providers.${name}.api (or providers.${name}.models.${index}.api) is required for a custom provider`;
  return undefined;
}

/** A new custom provider built from its models.json block (validated by `customProviderProblem`). */
export function customProvider(name: string, config: ProviderConfig): ProviderRegistration {
  return { name, api: config.api ?? config.models?.[0]?.api ?? "openai-completions", ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}), models: [] };
}

/** The registration with its models.json block applied: re-pointed, patched and extended. */
export function applyProviderConfig(registration: ProviderRegistration, config: ProviderConfig): ProviderRegistration {
  const patchAll = (model: Model): Model => {
    const next: Model = { ...model };
    if (config.baseUrl) next.baseUrl = config.baseUrl;
    if (config.api) next.api = config.api;
    if (config.headers) next.headers = { ...model.headers, ...config.headers };
    if (config.compat) next.compat = deepMerge(model.compat ?? {}, config.compat);
    const override = config.modelOverrides?.[model.id];
    return override ? patchModel(next, override) : next;
  };
  const byId = new Map(registration.models.map((model) => [model.id, patchAll(model)]));
  for (const entry of config.models ?? []) {
    const base = byId.get(entry.id) ?? defaultModel(registration, config, entry.id);
    byId.set(entry.id, patchModel(base, entry));
  }
  return {
    ...registration,
    ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
    ...(config.api ? { api: config.api } : {}),
    models: [...byId.values()],
  };
}

/** pi's defaults for a model declared only by id. */
function defaultModel(registration: ProviderRegistration, config: ProviderConfig, id: string): Model {
  return {
    id,
    name: id,
    api: config.api ?? registration.api,
    provider: registration.name,
    baseUrl: config.baseUrl ?? registration.baseUrl ?? "",
    reasoning: false,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 128_000,
    maxTokens: 16_384,
    ...(config.headers ? { headers: { ...config.headers } } : {}),
    ...(config.compat ? { compat: { ...config.compat } } : {}),
  };
}

function patchModel(model: Model, patch: z.output<ReturnType<typeof buildSchemas>["ModelPatch"]>): Model {
  const next: CatalogModel = { ...model };
  if (patch.name !== undefined) next.name = patch.name;
  if (patch.api !== undefined) next.api = patch.api;
  if (patch.baseUrl !== undefined) next.baseUrl = patch.baseUrl;
  if (patch.reasoning !== undefined) next.reasoning = patch.reasoning;
  if (patch.input !== undefined) next.input = [...patch.input];
  if (patch.cost !== undefined) next.cost = { cacheRead: 0, cacheWrite: 0, ...patch.cost };
  if (patch.contextWindow !== undefined) next.contextWindow = patch.contextWindow;
  if (patch.maxTokens !== undefined) next.maxTokens = patch.maxTokens;
  if (patch.headers !== undefined) next.headers = { ...model.headers, ...patch.headers };
  if (patch.compat !== undefined) next.compat = deepMerge(model.compat ?? {}, patch.compat);
  if (patch.costTiers !== undefined)
    next.costTiers = patch.costTiers.map((tier) => ({ aboveInputTokens: tier.aboveInputTokens, cost: { cacheRead: 0, cacheWrite: 0, ...tier.cost } }));
  if (patch.thinkingLevelMap !== undefined) {
    // Kept with the other wire details; the levels it offers follow from it unless listed.
    next.compat = { ...next.compat, thinkingLevelMap: { ...patch.thinkingLevelMap } };
    if (patch.thinkingLevels === undefined && next.reasoning) next.thinkingLevels = levelsOfMap(patch.thinkingLevelMap);
  }
  if (patch.thinkingLevels !== undefined) next.thinkingLevels = [...patch.thinkingLevels];
  return next;
}
