/**
 * The zod schemas of models.json (pi 1.6's format, plus Atomic's `costTiers` and per-override
 * `api`/`baseUrl`), built on first use: most processes have no models.json. A `modelOverrides`
 * entry changes only the fields it names, so its `cost` may name some rates and keep the rest.
 */
import { z } from "zod";
import { THINKING_LEVELS } from "../../lib/llm/index.js";

function buildSchemas() {
  const Rate = z.number().min(0);
  /** pi's request-wide price tier: the highest threshold the input exceeds prices the whole call. */
  const PiTier = z.object({ inputTokensAbove: z.number().int().positive(), input: Rate, output: Rate, cacheRead: Rate.optional(), cacheWrite: Rate.optional() });
  const Cost = z.object({ input: Rate, output: Rate, cacheRead: Rate.optional(), cacheWrite: Rate.optional(), tiers: z.array(PiTier).optional() });
  const PartialCost = Cost.partial();
  const Headers = z.record(z.string(), z.string());
  const Compat = z.record(z.string(), z.unknown());
  const CostTier = z.object({ aboveInputTokens: z.number().int().positive(), cost: Cost.omit({ tiers: true }) });
  const ThinkingLevelMap = z.partialRecord(z.enum(THINKING_LEVELS), z.string().min(1).nullable());
  const SamplingParams = z.record(z.string(), z.unknown());
  const PromptCache = z.object({ short: z.number().positive().optional(), long: z.number().positive().optional() });
  const InputLimits = z.record(z.string(), z.unknown());

  const patchFields = {
    name: z.string().min(1).optional(),
    api: z.string().min(1).optional(),
    baseUrl: z.string().min(1).optional(),
    reasoning: z.boolean().optional(),
    input: z.array(z.enum(["text", "image"])).optional(),
    contextWindow: z.number().int().positive().optional(),
    maxTokens: z.number().int().positive().optional(),
    headers: Headers.optional(),
    compat: Compat.optional(),
    thinkingLevels: z.array(z.enum(THINKING_LEVELS)).min(1).optional(),
    /** pi's level -> provider value map; `null` removes a level. */
    thinkingLevelMap: ThinkingLevelMap.optional(),
    costTiers: z.array(CostTier).optional(),
    samplingParams: SamplingParams.optional(),
    samplingParamsByThinkingLevel: z.partialRecord(z.enum(THINKING_LEVELS), SamplingParams).optional(),
    promptCache: PromptCache.optional(),
    inputLimits: InputLimits.optional(),
  };
  const ModelOverride = z.looseObject({ ...patchFields, cost: PartialCost.optional() });
  const ModelEntry = z.looseObject({ ...patchFields, id: z.string().min(1), cost: Cost.optional() });

  /** The provider's own fields; `models` and `modelOverrides` are checked entry by entry. */
  const ProviderFields = z.looseObject({
    name: z.string().min(1).optional(),
    baseUrl: z.string().min(1).optional(),
    api: z.string().min(1).optional(),
    apiKey: z.string().optional(),
    /** Also send the key as `Authorization: Bearer <key>` (proxies that want it there). */
    authHeader: z.boolean().optional(),
    headers: Headers.optional(),
    compat: Compat.optional(),
    oauth: z.string().min(1).optional(),
    models: z.array(z.unknown()).optional(),
    modelOverrides: z.record(z.string(), z.unknown()).optional(),
  });

  const ProviderEntry = ProviderFields.extend({ models: z.array(ModelEntry).optional(), modelOverrides: z.record(z.string(), ModelOverride).optional() });
  return { ProviderFields, ProviderEntry, ModelEntry, ModelOverride };
}

let schemas: ReturnType<typeof buildSchemas> | undefined;
export const modelsSchemas = () => (schemas ??= buildSchemas());

export type ProviderConfig = z.output<ReturnType<typeof buildSchemas>["ProviderEntry"]>;
export type ModelEntryConfig = z.output<ReturnType<typeof buildSchemas>["ModelEntry"]>;
export type ModelOverrideConfig = z.output<ReturnType<typeof buildSchemas>["ModelOverride"]>;
export interface ModelsFile {
  providers: Record<string, ProviderConfig>;
}
