/** The catalog entries nearest to a pattern that matched nothing, for the error that names them. */
import type { Model } from "../../lib/llm/index.js";
import { closest, editDistance } from "../../lib/closest/index.js";

/** Up to `limit` models as `provider/id`, nearest first (a slip inside the id counts least), ties in catalog order. */
export function closestModels(models: readonly Model[], pattern: string, limit = 3): string[] {
  const candidates = models.map((model) => ({ name: `${model.provider}/${model.id}`, texts: [model.id, `${model.provider}/${model.id}`] }));
  return closest(candidates, pattern, { limit });
}

/**
 * " Did you mean "openai"?" when a known provider is a slip away, else "". Whole names are
 * compared (not parts, as for model ids): provider names are short, and "nope" is no slip of "openai".
 */
export function didYouMean(known: readonly string[], wanted: string): string {
  const target = wanted.toLowerCase();
  const allowed = Math.max(1, Math.floor(target.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(target, name.toLowerCase());
    if (distance <= allowed && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best ? ` Did you mean "${best.name}"?` : "";
}
