/**
 * A catalog file as the registry takes it: the provider's registration fields, and its entries
 * expanded into full `Model` objects (the provider's API, base URL and `compat` filled in, missing
 * cache prices as 0). Entry order is catalog order: the first model is the provider's default.
 */
import type { Model, ModelCost } from "../llm/index.js";
import type { ProviderRegistration } from "../provider-kit/types.js";
import type { CatalogEntry, CatalogProvider } from "./schema.js";

/** The registration without its models (`models` is filled in when first asked for). */
export function providerRegistration(provider: CatalogProvider): Omit<ProviderRegistration, "models"> {
  return {
    name: provider.provider,
    api: provider.api,
    baseUrl: provider.baseUrl,
    ...(provider.envKey ? { envKey: provider.envKey } : {}),
    ...(provider.altEnvKeys ? { altEnvKeys: [...provider.altEnvKeys] } : {}),
    ...(provider.ambientAuth ? { ambientAuth: provider.ambientAuth.map((group) => [...group]) } : {}),
    ...(provider.local ? { requiresAuth: false } : {}),
    ...(provider.oauth ? { login: true } : {}),
  };
}

export function expandModels(provider: CatalogProvider, entries: readonly CatalogEntry[]): Model[] {
  return entries.map((entry) => expandModel(provider, entry));
}

export function expandModel(provider: CatalogProvider, entry: CatalogEntry): Model {
  const compat = provider.compat || entry.compat ? { ...provider.compat, ...entry.compat } : undefined;
  const headers = provider.headers || entry.headers ? { ...provider.headers, ...entry.headers } : undefined;
  return {
    id: entry.id,
    name: entry.name,
    api: entry.api ?? provider.api,
    provider: provider.provider,
    baseUrl: entry.baseUrl ?? provider.baseUrl,
    reasoning: entry.reasoning,
    input: [...entry.input],
    cost: cost(entry.cost),
    contextWindow: entry.contextWindow,
    maxTokens: entry.maxTokens,
    ...(entry.costTiers ? { costTiers: entry.costTiers.map((tier) => ({ aboveInputTokens: tier.aboveInputTokens, cost: cost(tier.cost) })) } : {}),
    ...(entry.thinkingLevels ? { thinkingLevels: [...entry.thinkingLevels] } : {}),
    ...(headers ? { headers } : {}),
    ...(compat ? { compat } : {}),
    ...(entry.retiresOn ? { retiresOn: entry.retiresOn } : {}),
  };
}

function cost(value: CatalogEntry["cost"]): ModelCost {
  return { input: value.input, output: value.output, cacheRead: value.cacheRead ?? 0, cacheWrite: value.cacheWrite ?? 0 };
}
