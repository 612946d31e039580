/**
 * The planner's answer as a deletion plan (docs/decisions.md, Compaction plans). Each line is
 * a `start,end` record deleting lines start..end inclusive (1-based); any other non-empty line
 * rejects the whole plan. Valid records are normalised: reversed pairs swapped, ranges clipped to
 * 1..N (a range wholly outside is dropped), then sorted and merged when they overlap or touch.
 */

/** Lines `start`..`end`, 1-based and inclusive. */
export interface LineRange {
  start: number;
  end: number;
}

export type ParsedPlan = { ok: true; ranges: LineRange[] } | { ok: false; reason: string };

const RECORD = /^(\d+)\s*,\s*(\d+)$/;

/**
 * Parses an answer. `truncated` (the model hit its output limit): the text after the last
 * newline is an unfinished record and is dropped; a plan cut off before any complete record is
 * rejected. An empty answer is a valid plan that deletes nothing.
 *
 * @example
 * parsePlan("2,5\n9,7\n", false); // { ok: true, ranges: [{start: 2, end: 5}, {start: 9, end: 7}] }
 */
export function parsePlan(answer: string, truncated: boolean): ParsedPlan {
  const lines = answer.split("\n");
  // The final piece is either "" (the answer ended with a newline) or, when cut off, a fragment.
  if (truncated || lines.at(-1)?.trim() === "") lines.pop();
  const ranges: LineRange[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === "") continue;
    const match = RECORD.exec(line);
    if (!match) return { ok: false, reason: `line ${i + 1} is not a "start,end" record: ${quote(line)}` };
    ranges.push({ start: Number(match[1]), end: Number(match[2]) });
  }
  if (truncated && ranges.length === 0) return { ok: false, reason: "the answer hit the output limit before its first complete record" };
  return { ok: true, ranges };
}

/** Swapped, clipped to 1..`lineCount`, sorted and merged (overlapping or adjacent). */
export function normalizeRanges(ranges: readonly LineRange[], lineCount: number): LineRange[] {
  const clipped: LineRange[] = [];
  for (const range of ranges) {
    const low = Math.min(range.start, range.end);
    const high = Math.max(range.start, range.end);
    const start = Math.max(1, low);
    const end = Math.min(lineCount, high);
    if (start <= end) clipped.push({ start, end });
  }
  clipped.sort((a, b) => a.start - b.start || a.end - b.end);
  const merged: LineRange[] = [];
  for (const range of clipped) {
    const last = merged.at(-1);
    if (last && range.start <= last.end + 1) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  return merged;
}

function quote(line: string): string {
  return JSON.stringify(line.length > 60 ? `${line.slice(0, 57)}...` : line);
}
