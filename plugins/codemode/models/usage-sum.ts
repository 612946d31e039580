/** Usage of several `models.*` calls as one (pi's combineUsage): every count and cost summed. */
import type { ModelUsage } from "./types.js";

export function addUsage(total: ModelUsage | undefined, more: ModelUsage): ModelUsage {
  if (!total) return { ...more, cost: { ...more.cost } };
  return {
    input: total.input + more.input,
    output: total.output + more.output,
    cacheRead: total.cacheRead + more.cacheRead,
    cacheWrite: total.cacheWrite + more.cacheWrite,
    totalTokens: total.totalTokens + more.totalTokens,
    cost: {
      input: total.cost.input + more.cost.input,
      output: total.cost.output + more.cost.output,
      cacheRead: total.cost.cacheRead + more.cost.cacheRead,
      cacheWrite: total.cost.cacheWrite + more.cost.cacheWrite,
      total: total.cost.total + more.cost.total,
      totalFromProvider: false,
    },
  };
}
