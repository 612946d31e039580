/** The catalog entries nearest to a pattern that matched nothing, for the error that names them. */
import type { Model } from "../../lib/llm/index.js";
import { closest } from "../../lib/closest/index.js";

/** Up to `limit` models as `provider/id`, nearest first (a slip inside the id counts least), ties in catalog order. */
export function closestModels(models: readonly Model[], pattern: string, limit = 3): string[] {
  const candidates = models.map((model) => ({ name: `${model.provider}/${model.id}`, texts: [model.id, `${model.provider}/${model.id}`] }));
  return closest(candidates, pattern, { limit });
}

/** " Did you mean "openai"?" when a known provider is a slip away (whole names compared), else "". */
export function didYouMean(known: readonly string[], wanted: string): string {
  const [near] = closest(known, wanted, { limit: 1, wholeNames: true, maxDistance: Math.max(1, Math.floor(wanted.length / 3)) });
  return near ? ` Did you mean "${near}"?` : "";
}
