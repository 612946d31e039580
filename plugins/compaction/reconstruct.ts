/**
 * Applies a deletion plan to the region's lines: surviving lines are copied byte for byte and
 * each run of deleted lines becomes one `(filtered N lines)` marker. A marker from an earlier
 * compaction that touches a deleted run joins it, and N counts the lines it stood for, so a
 * line count stays true across repeated compactions. Linear in the number of lines.
 */
import type { LineRange } from "./plan.js";

const MARKER = /^\(filtered (\d+) lines\)$/;

export interface Reconstruction {
  text: string;
  /** Physical region lines removed (earlier markers that joined a run included). */
  linesDeleted: number;
  /** Marker lines written: the ranges after merging. */
  rangeCount: number;
}

export function markerLine(count: number): string {
  return `(filtered ${count} lines)`;
}

/** Lines an earlier marker stands for; undefined for an ordinary line. */
function markerCount(line: string): number | undefined {
  if (line.charCodeAt(0) !== 40 /* ( */) return undefined;
  const match = MARKER.exec(line);
  return match ? Number(match[1]) : undefined;
}

/** `ranges` must be normalised (see plan.ts) against `lines.length`. */
export function reconstruct(lines: readonly string[], ranges: readonly LineRange[]): Reconstruction {
  const count = lines.length;
  const deleted = new Uint8Array(count);
  for (const { start, end } of ranges) deleted.fill(1, start - 1, end);
  // Earlier markers next to a deleted line join it; chains of markers are followed both ways.
  for (let i = 1; i < count; i++) if (!deleted[i] && deleted[i - 1] && markerCount(lines[i]!) !== undefined) deleted[i] = 1;
  for (let i = count - 2; i >= 0; i--) if (!deleted[i] && deleted[i + 1] && markerCount(lines[i]!) !== undefined) deleted[i] = 1;

  // Built as one growing string: cheaper than collecting lines and joining them.
  let text = "";
  let linesDeleted = 0;
  let rangeCount = 0;
  for (let i = 0; i < count; ) {
    const separator = i === 0 ? "" : "\n";
    if (!deleted[i]) {
      text += separator + lines[i]!;
      i++;
      continue;
    }
    let represented = 0;
    for (; i < count && deleted[i]; i++) {
      represented += markerCount(lines[i]!) ?? 1;
      linesDeleted++;
    }
    text += separator + markerLine(represented);
    rangeCount++;
  }
  return { text, linesDeleted, rangeCount };
}
