/** The catalog entries nearest to a pattern that matched nothing, for the error that names them. */
import type { Model } from "../../lib/llm/index.js";

/** Up to `limit` models as `provider/id`, nearest first (edit distance to the id or `provider/id`). */
export function closestModels(models: readonly Model[], pattern: string, limit = 3): string[] {
  const wanted = pattern.trim().toLowerCase();
  if (wanted === "") return [];
  const scored = models.map((model) => {
    const id = model.id.toLowerCase();
    const full = `${model.provider}/${model.id}`.toLowerCase();
    return { ref: `${model.provider}/${model.id}`, distance: Math.min(editDistance(wanted, id), editDistance(wanted, full)) };
  });
  scored.sort((a, b) => a.distance - b.distance || a.ref.localeCompare(b.ref));
  return scored.slice(0, limit).map((entry) => entry.ref);
}

/** Levenshtein distance, two rows: ids are short, the catalog has a few hundred entries. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}
