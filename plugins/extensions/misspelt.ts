/** What to add to "X must be ..." when an extension's definition lacks X but has a slip of it. */
import { closest } from "../../lib/closest/index.js";

/** ` (it has "paramters": did you mean "parameters"?)` when another key is a slip of the missing field, else "". */
export function misspelt(definition: object, field: string): string {
  if ((definition as Record<string, unknown>)[field] !== undefined) return "";
  const [slip] = closest(Object.keys(definition), field, { limit: 1, wholeNames: true, maxDistance: 2 });
  return slip ? ` (it has "${slip}": did you mean "${field}"?)` : "";
}
