/**
 * "Did you mean": the known names nearest to one that matched nothing (a model pattern, a
 * settings key). A typo is usually a short slip inside a longer name (`sonet` for
 * `claude-sonnet-5-5`), so a name is ranked by how few edits turn the wanted text into some
 * part of it, then by the edits to the whole of it.
 */

/**
 * Levenshtein distance, kept in rows: names are short, catalogs a few hundred entries. With
 * `swapsCountOnce`, swapping two neighbouring letters is one edit, not two (optimal string
 * alignment distance).
 */
export function editDistance(a: string, b: string, swapsCountOnce = false): number {
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (swapsCountOnce && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, beforePrevious[j - 2]! + 1);
      current.push(best);
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/** Edits between two short names where a swapped pair of neighbouring letters (a typist's commonest slip: `mdoe` for `mode`) is one. */
export function typoDistance(a: string, b: string): number {
  return editDistance(a, b, true);
}

/** The fewest edits that turn `pattern` into some substring of `text` (0 when it occurs as is). */
export function substringDistance(pattern: string, text: string): number {
  // Levenshtein with a free start and end in `text` (Sellers' algorithm).
  let previous = new Array<number>(text.length + 1).fill(0);
  for (let i = 1; i <= pattern.length; i++) {
    const current = [i];
    for (let j = 1; j <= text.length; j++) {
      const substitution = previous[j - 1]! + (pattern[i - 1] === text[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return Math.min(...previous);
}

export interface Candidate {
  /** What is suggested (`anthropic/claude-sonnet-5-5`, a settings key). */
  name: string;
  /** The texts the wanted one is compared with (default: the name); the closest counts. */
  texts?: readonly string[];
}

export interface ClosestOptions {
  limit?: number;
  /** Leave out candidates more than this many edits from any part of them (default: half the wanted name's length, at least 2). */
  maxDistance?: number;
  /** Compare whole names only, not parts: for short names (providers), where "nope" is no slip of "openai". */
  wholeNames?: boolean;
  /** Two neighbouring letters swapped (`modle` for `model`) count as one edit to a whole name, not two. */
  swapsCountOnce?: boolean;
}

/** Up to `limit` (3) names, nearest first, ties in the candidates' own order; case-insensitive. */
export function closest(candidates: readonly (Candidate | string)[], wanted: string, options: ClosestOptions = {}): string[] {
  const target = wanted.trim().toLowerCase();
  if (target === "") return [];
  const scored = candidates.map((candidate, index) => {
    const { name, texts } = typeof candidate === "string" ? { name: candidate, texts: undefined } : candidate;
    const lowered = (texts ?? [name]).map((text) => text.toLowerCase());
    return {
      name,
      index,
      part: Math.min(...lowered.map((text) => substringDistance(target, text))),
      whole: Math.min(...lowered.map((text) => editDistance(target, text, options.swapsCountOnce))),
    };
  });
  const limit = options.maxDistance ?? Math.max(2, Math.floor(target.length / 2));
  const kept = options.wholeNames ? scored.filter((entry) => entry.whole <= limit) : scored.filter((entry) => entry.part <= limit);
  kept.sort(options.wholeNames ? (a, b) => a.whole - b.whole || a.index - b.index : (a, b) => a.part - b.part || a.whole - b.whole || a.index - b.index);
  return [...new Set(kept.map((entry) => entry.name))].slice(0, options.limit ?? 3);
}

/** The known name a slip away from `wanted` (whole names compared, a third of its letters at most; a swapped pair is one slip). */
export function nearestName(known: readonly string[], wanted: string): string | undefined {
  return closest(known, wanted, { limit: 1, wholeNames: true, swapsCountOnce: true, maxDistance: Math.max(1, Math.floor(wanted.length / 3)) })[0];
}

/** ` Did you mean "openai"?` when a known name is a slip away, else "". */
export function didYouMean(known: readonly string[], wanted: string): string {
  const near = nearestName(known, wanted);
  return near ? ` Did you mean "${near}"?` : "";
}
