/** Usage of several `models.*` calls as one (pi's combineUsage): every count and cost summed. */
import { sumUsage } from "../../../lib/llm/index.js";
import type { ModelUsage } from "../../../lib/typed-models/types.js";

export function addUsage(total: ModelUsage | undefined, more: ModelUsage): ModelUsage {
  const sum = total ? sumUsage(total, more) : { ...more, cost: { ...more.cost } };
  return { ...sum, cost: { ...sum.cost, totalFromProvider: false } };
}
