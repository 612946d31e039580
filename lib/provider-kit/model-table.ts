/**
 * A provider's model table as compact data: one row per model, expanded into full `Model`
 * objects that share the provider's name, API and base URL. Row order is catalog order: the
 * first row is the provider's default.
 */
import type { ThinkingLevel } from "../llm/index.js";
import type { CatalogModel } from "./types.js";

type Prices = [input: number, output: number, cacheRead: number, cacheWrite: number];

export interface ModelRow {
  id: string;
  name: string;
  /** $ per million tokens: input, output, cache read, cache write. */
  cost: Prices;
  /** Higher prices for a whole call whose prompt exceeds `above` tokens. */
  tiers?: { above: number; cost: Prices }[];
  /** ISO date from which the vendor refuses requests, when announced (deprecated models). */
  retiresOn?: string;
  contextWindow: number;
  maxTokens: number;
  /** Default true. */
  reasoning?: boolean;
  /** Text input only (default: text and images). */
  textOnly?: boolean;
  thinkingLevels?: ThinkingLevel[];
  compat?: Record<string, unknown>;
}

const costOf = (prices: Prices) => ({ input: prices[0], output: prices[1], cacheRead: prices[2], cacheWrite: prices[3] });

export function modelTable(provider: string, api: string, baseUrl: string, rows: readonly ModelRow[]): CatalogModel[] {
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    api,
    provider,
    baseUrl,
    reasoning: row.reasoning ?? true,
    input: row.textOnly ? ["text"] : ["text", "image"],
    cost: costOf(row.cost),
    ...(row.tiers ? { costTiers: row.tiers.map((tier) => ({ aboveInputTokens: tier.above, cost: costOf(tier.cost) })) } : {}),
    ...(row.retiresOn ? { retiresOn: row.retiresOn } : {}),
    contextWindow: row.contextWindow,
    maxTokens: row.maxTokens,
    ...(row.thinkingLevels ? { thinkingLevels: [...row.thinkingLevels] } : {}),
    ...(row.compat ? { compat: { ...row.compat } } : {}),
  }));
}
