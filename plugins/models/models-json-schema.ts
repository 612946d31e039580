/**
 * The zod schemas of models.json (pi 1.6's format, plus Atomic's `costTiers` and per-override
 * `api`/`baseUrl`), built on first use: most processes have no models.json. A `modelOverrides`
 * entry changes only the fields it names, so its `cost` may name some rates and keep the rest.
 */
import { z } from "zod";
import { THINKING_LEVELS } from "../../lib/llm/index.js";

/** A schema (or a set of them) built once, on first use. */
function once<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

const rate = once(() => z.number().min(0));
/** pi's request-wide price tier: the highest threshold the input exceeds prices the whole call. */
const cost = once(() => {
  const Rate = rate();
  const PiTier = z.object({ inputTokensAbove: z.number().int().positive(), input: Rate, output: Rate, cacheRead: Rate.optional(), cacheWrite: Rate.optional() });
  return z.object({ input: Rate, output: Rate, cacheRead: Rate.optional(), cacheWrite: Rate.optional(), tiers: z.array(PiTier).optional() });
});
const headers = once(() => z.record(z.string(), z.string()));
const compat = once(() => z.record(z.string(), z.unknown()));

/** The fields a model entry and a model override share. */
const patchFields = once(() => {
  const CostTier = z.object({ aboveInputTokens: z.number().int().positive(), cost: cost().omit({ tiers: true }) });
  const ThinkingLevelMap = z.partialRecord(z.enum(THINKING_LEVELS), z.string().min(1).nullable());
  const SamplingParams = z.record(z.string(), z.unknown());
  const PromptCache = z.object({ short: z.number().positive().optional(), long: z.number().positive().optional() });
  const InputLimits = z.record(z.string(), z.unknown());
  return {
    name: z.string().min(1).optional(),
    api: z.string().min(1).optional(),
    baseUrl: z.string().min(1).optional(),
    reasoning: z.boolean().optional(),
    input: z.array(z.enum(["text", "image"])).optional(),
    contextWindow: z.number().int().positive().optional(),
    maxTokens: z.number().int().positive().optional(),
    headers: headers().optional(),
    compat: compat().optional(),
    thinkingLevels: z.array(z.enum(THINKING_LEVELS)).min(1).optional(),
    /** pi's level -> provider value map; `null` removes a level. */
    thinkingLevelMap: ThinkingLevelMap.optional(),
    costTiers: z.array(CostTier).optional(),
    samplingParams: SamplingParams.optional(),
    samplingParamsByThinkingLevel: z.partialRecord(z.enum(THINKING_LEVELS), SamplingParams).optional(),
    promptCache: PromptCache.optional(),
    inputLimits: InputLimits.optional(),
  };
});

const modelOverride = once(() => z.looseObject({ ...patchFields(), cost: cost().partial().optional() }));
const modelEntry = once(() => z.looseObject({ ...patchFields(), id: z.string().min(1), cost: cost().optional() }));

/** The provider's own fields; `models` and `modelOverrides` are checked entry by entry. */
const providerFields = once(() =>
  z.looseObject({
    name: z.string().min(1).optional(),
    baseUrl: z.string().min(1).optional(),
    api: z.string().min(1).optional(),
    apiKey: z.string().optional(),
    /** Also send the key as `Authorization: Bearer <key>` (proxies that want it there). */
    authHeader: z.boolean().optional(),
    headers: headers().optional(),
    compat: compat().optional(),
    oauth: z.string().min(1).optional(),
    models: z.array(z.unknown()).optional(),
    modelOverrides: z.record(z.string(), z.unknown()).optional(),
  }),
);

/** A whole provider block: the type of a checked block (the checks go field by field, above). */
const providerEntry = () => providerFields().extend({ models: z.array(modelEntry()).optional(), modelOverrides: z.record(z.string(), modelOverride()).optional() });

/**
 * Each schema is built when first read: a models.json without `modelOverrides` never builds
 * theirs (every start with a models.json reads this, on the way to the first token).
 */
export const modelsSchemas = () => ({
  get ProviderFields() {
    return providerFields();
  },
  get ModelEntry() {
    return modelEntry();
  },
  get ModelOverride() {
    return modelOverride();
  },
});

export type ProviderConfig = z.output<ReturnType<typeof providerEntry>>;
export type ModelEntryConfig = z.output<ReturnType<typeof modelEntry>>;
export type ModelOverrideConfig = z.output<ReturnType<typeof modelOverride>>;
export interface ModelsFile {
  providers: Record<string, ProviderConfig>;
}
