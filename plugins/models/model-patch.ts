/**
 * A models.json provider block applied to a registration, merged as pi 1.6 merges it: the
 * provider's `baseUrl`, `api`, `headers` and `compat` reach every model; a `modelOverrides` entry
 * changes only the fields it names (a partial `cost` keeps the other rates, `thinkingLevelMap`,
 * `headers`, `compat` and `samplingParams` merge into the model's); a `models` entry adds a model
 * (pi's defaults) or redefines one. `samplingParams` travel in `compat`, where the OpenAI-compatible
 * adapters read them.
 */
import { deepMerge } from "../../kernel/index.js";
import { THINKING_LEVELS, type Model, type ModelCost, type ThinkingLevel } from "../../lib/llm/index.js";
import { levelsOfMap, thinkingLevelMapOf, type CatalogModel, type ThinkingLevelMap } from "../../lib/provider-kit/index.js";
import type { ProviderRegistration } from "./api.js";
import type { ModelEntryConfig, ModelOverrideConfig, ProviderConfig } from "./models-json-schema.js";

type Patch = ModelEntryConfig | ModelOverrideConfig;

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

function patchModel(model: Model, patch: Patch): Model {
  const next: CatalogModel = { ...model };
  if (patch.name !== undefined) next.name = patch.name;
  if (patch.api !== undefined) next.api = patch.api;
  if (patch.baseUrl !== undefined) next.baseUrl = patch.baseUrl;
  if (patch.reasoning !== undefined) next.reasoning = patch.reasoning;
  if (patch.input !== undefined) next.input = [...patch.input];
  if (patch.cost !== undefined) {
    const { tiers, ...rates } = patch.cost;
    next.cost = mergeRates(model.cost, rates);
    if (tiers !== undefined) next.costTiers = tiers.map(({ inputTokensAbove, ...tier }) => ({ aboveInputTokens: inputTokensAbove, cost: mergeRates(zeroCost(), tier) }));
  }
  if (patch.costTiers !== undefined) next.costTiers = patch.costTiers.map((tier) => ({ aboveInputTokens: tier.aboveInputTokens, cost: mergeRates(zeroCost(), tier.cost) }));
  if (patch.contextWindow !== undefined) next.contextWindow = patch.contextWindow;
  if (patch.maxTokens !== undefined) next.maxTokens = patch.maxTokens;
  if (patch.headers !== undefined) next.headers = { ...model.headers, ...patch.headers };
  if (patch.compat !== undefined) next.compat = deepMerge(model.compat ?? {}, patch.compat);
  if (patch.samplingParams !== undefined || patch.samplingParamsByThinkingLevel !== undefined) next.compat = withSampling(next.compat, patch);
  if (patch.thinkingLevelMap !== undefined) {
    // Merged into the model's own map (pi); the levels offered follow unless listed.
    const merged: ThinkingLevelMap = { ...thinkingLevelMapOf(next), ...patch.thinkingLevelMap };
    const levels = patch.thinkingLevels === undefined && next.reasoning ? mergedLevels(next, patch.thinkingLevelMap) : undefined;
    next.compat = { ...next.compat, thinkingLevelMap: merged };
    if (levels) next.thinkingLevels = levels;
  }
  if (patch.thinkingLevels !== undefined) next.thinkingLevels = [...patch.thinkingLevels];
  return next;
}

function zeroCost(): ModelCost {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
}

function mergeRates(base: ModelCost, rates: Partial<ModelCost>): ModelCost {
  return {
    input: rates.input ?? base.input,
    output: rates.output ?? base.output,
    cacheRead: rates.cacheRead ?? base.cacheRead,
    cacheWrite: rates.cacheWrite ?? base.cacheWrite,
  };
}

/** The model's levels with the patch's map applied: `null` takes a level away, a value adds it. */
function mergedLevels(model: Model, patch: ThinkingLevelMap): ThinkingLevel[] {
  const current = new Set(model.thinkingLevels ?? levelsOfMap(thinkingLevelMapOf(model) ?? {}));
  for (const [level, value] of Object.entries(patch) as [ThinkingLevel, string | null][]) {
    if (value === null) current.delete(level);
    else current.add(level);
  }
  return THINKING_LEVELS.filter((level) => current.has(level));
}

function withSampling(compat: Record<string, unknown> | undefined, patch: Patch): Record<string, unknown> {
  const next = { ...compat };
  if (patch.samplingParams) next.samplingParams = { ...(compat?.samplingParams as object | undefined), ...patch.samplingParams };
  if (patch.samplingParamsByThinkingLevel) {
    const byLevel = { ...(compat?.samplingParamsByThinkingLevel as Record<string, object> | undefined) };
    for (const [level, params] of Object.entries(patch.samplingParamsByThinkingLevel)) byLevel[level] = { ...byLevel[level], ...params };
    next.samplingParamsByThinkingLevel = byLevel;
  }
  return next;
}
