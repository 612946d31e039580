/** The catalog entries nearest to a pattern that matched nothing, for the error that names them. */
import { closest } from "../../lib/closest/index.js";

export { closestHint, closestModels, modelSlipLimit } from "../../lib/closest/models.js";

/** " Did you mean "openai"?" when a known provider is a slip away (whole names compared), else "". */
export function didYouMean(known: readonly string[], wanted: string): string {
  const [near] = closest(known, wanted, { limit: 1, wholeNames: true, maxDistance: Math.max(1, Math.floor(wanted.length / 3)) });
  return near ? ` Did you mean "${near}"?` : "";
}
