/**
 * The unified diff the edit tool returns. Only the replaced lines (plus context) are diffed, not
 * the whole file: a Myers diff of a whole large file, or of a large rewritten block, costs
 * O(N·D) and could block the event loop for minutes. Beyond MAX_EDIT_LENGTH changed lines the
 * region is shown as plain removed/added lines, which is exact, just less fine-grained.
 */
import type { StructuredPatch, StructuredPatchHunk } from "diff";

const CONTEXT = 3;
const MAX_EDIT_LENGTH = 2000;
const NO_NEWLINE = "\\ No newline at end of file";

export interface EditDiff {
  diff: string;
  /** 1-based line (in the new file) of the first added or removed line. */
  firstChangedLine: number | undefined;
}

/** Diff of `original` -> `updated`, where `updated` replaced original[start, end) and nothing else. */
export async function diffReplacement(path: string, original: string, updated: string, start: number, end: number): Promise<EditDiff> {
  // Whole lines around the change, CONTEXT more on each side.
  let regionStart = start === 0 ? 0 : original.lastIndexOf("\n", start - 1) + 1;
  for (let i = 0; i < CONTEXT; i++) regionStart = regionStart <= 1 ? 0 : original.lastIndexOf("\n", regionStart - 2) + 1;
  let regionEnd = end > start && original[end - 1] === "\n" ? end : nextLineEnd(original, end);
  for (let i = 0; i < CONTEXT; i++) regionEnd = nextLineEnd(original, regionEnd);
  const oldRegion = original.slice(regionStart, regionEnd);
  const newRegion = updated.slice(regionStart, regionEnd + updated.length - original.length);
  const lineOffset = countNewlines(original, regionStart);

  const { FILE_HEADERS_ONLY, formatPatch, structuredPatch } = await import("diff");
  const patch =
    structuredPatch(path, path, oldRegion, newRegion, undefined, undefined, { context: CONTEXT, maxEditLength: MAX_EDIT_LENGTH }) ?? plainPatch(path, oldRegion, newRegion);
  for (const hunk of patch.hunks) {
    hunk.oldStart += lineOffset;
    hunk.newStart += lineOffset;
  }
  return { diff: formatPatch(patch, FILE_HEADERS_ONLY), firstChangedLine: firstChangedLine(patch) };
}

/** Index just past the newline that ends the line at `from` (or the end of the text). */
function nextLineEnd(text: string, from: number): number {
  if (from >= text.length) return text.length;
  const newline = text.indexOf("\n", from);
  return newline === -1 ? text.length : newline + 1;
}

function countNewlines(text: string, before: number): number {
  let count = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < before; i = text.indexOf("\n", i + 1)) count++;
  return count;
}

function linesOf(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  return lines;
}

/** One hunk: the common leading/trailing lines as context, everything between removed and added. */
function plainPatch(path: string, oldRegion: string, newRegion: string): StructuredPatch {
  const oldLines = linesOf(oldRegion);
  const newLines = linesOf(newRegion);
  const bothTerminated = oldRegion.endsWith("\n") && newRegion.endsWith("\n");
  let prefix = 0;
  while (prefix < oldLines.length && prefix < newLines.length && oldLines[prefix] === newLines[prefix]) prefix++;
  let suffix = 0;
  while (
    bothTerminated &&
    suffix < oldLines.length - prefix &&
    suffix < newLines.length - prefix &&
    oldLines[oldLines.length - 1 - suffix] === newLines[newLines.length - 1 - suffix]
  )
    suffix++;
  const removed = oldLines.slice(prefix, oldLines.length - suffix).map((line) => `-${line}`);
  const added = newLines.slice(prefix, newLines.length - suffix).map((line) => `+${line}`);
  if (removed.length > 0 && suffix === 0 && !oldRegion.endsWith("\n")) removed.push(NO_NEWLINE);
  if (added.length > 0 && suffix === 0 && !newRegion.endsWith("\n")) added.push(NO_NEWLINE);
  const hunk: StructuredPatchHunk = {
    oldStart: 1,
    oldLines: oldLines.length,
    newStart: 1,
    newLines: newLines.length,
    lines: [...oldLines.slice(0, prefix).map((line) => ` ${line}`), ...removed, ...added, ...oldLines.slice(oldLines.length - suffix).map((line) => ` ${line}`)],
  };
  return { oldFileName: path, newFileName: path, oldHeader: undefined, newHeader: undefined, hunks: [hunk] };
}

function firstChangedLine(patch: StructuredPatch): number | undefined {
  const hunk = patch.hunks[0];
  if (!hunk) return undefined;
  let line = hunk.newStart;
  for (const row of hunk.lines) {
    if (row.startsWith("+") || row.startsWith("-")) return line;
    line++;
  }
  return line;
}
