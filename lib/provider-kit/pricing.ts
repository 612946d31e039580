/**
 * What a call cost: $ per million tokens × tokens, at the price tier the prompt falls in.
 * Tiers are data on the model (`costTiers`): a prompt (input + cache reads + cache writes)
 * above a tier's threshold is billed entirely at that tier's prices (OpenAI above 272K
 * tokens, Gemini Pro above 200K, Claude Haiku 5.5 above 100K).
 */
import type { Model, ModelCost, Usage } from "../llm/index.js";
import type { CatalogModel } from "./types.js";

/** The prices that apply to a prompt of `promptTokens` tokens. */
export function priceFor(model: Model, promptTokens: number): ModelCost {
  let price = model.cost;
  let threshold = -1;
  for (const tier of (model as CatalogModel).costTiers ?? []) {
    if (promptTokens > tier.aboveInputTokens && tier.aboveInputTokens > threshold) {
      price = tier.cost;
      threshold = tier.aboveInputTokens;
    }
  }
  return price;
}

/**
 * The cost of `usage`; total is the sum of the four parts. `cacheWrite1h` of the cache writes
 * were written with a one-hour lifetime, billed at twice the input price (Anthropic).
 */
export function computeCost(model: Model, usage: Usage, cacheWrite1h = 0): Usage["cost"] {
  const price = priceFor(model, usage.input + usage.cacheRead + usage.cacheWrite);
  const part = (perMillion: number | undefined, tokens: number) => ((perMillion ?? 0) * tokens) / 1_000_000;
  const longWrites = Math.min(cacheWrite1h, usage.cacheWrite);
  const input = part(price.input, usage.input);
  const output = part(price.output, usage.output);
  const cacheRead = part(price.cacheRead, usage.cacheRead);
  const cacheWrite = part(price.cacheWrite, usage.cacheWrite - longWrites) + part(price.input * 2, longWrites);
  return { input, output, cacheRead, cacheWrite, total: input + output + cacheRead + cacheWrite };
}
