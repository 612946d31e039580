/**
 * Which texts are not worth handing to marked: very large ones, and ones nested deeper than any
 * real document (marked recurses per level: 2,000 `>` overflow the stack, 3,000 list levels
 * take minutes and gigabytes). Those are shown as escaped plain text with a note saying why.
 * Cheap checks only (one pass); whatever slips through is bounded by the worker's deadline.
 */
import { formatSize } from "../../lib/truncate/index.js";
import { escapeHtml, escapeHtmlInSlices } from "./escape.js";

/** Larger texts are shown as plain text (real messages are far smaller; logs read better plain). */
export const MAX_MARKDOWN_CHARS = 256 * 1024;
/** Deeper nesting of block quotes and lists is shown as plain text (marked: ~30 ms at 64 levels). */
export const MAX_MARKDOWN_NESTING = 64;

/** Why `text` should not be rendered as markdown, or undefined when it can be. */
export function markdownRisk(text: string): string | undefined {
  if (text.length > MAX_MARKDOWN_CHARS) return `it is over ${formatSize(MAX_MARKDOWN_CHARS)}`;
  const depth = nestingDepth(text);
  if (depth > MAX_MARKDOWN_NESTING) return `it nests ${depth} levels deep (over ${MAX_MARKDOWN_NESTING})`;
  return undefined;
}

/**
 * The deepest container nesting on any line, over-estimated: block quote markers and list
 * markers at the start of a line, plus one level per two columns of indentation before them.
 */
export function nestingDepth(text: string): number {
  let deepest = 0;
  let depth = 0;
  let column = 0;
  let atStart = true; // still in the line's prefix of whitespace and container markers
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 10) {
      deepest = Math.max(deepest, depth + (column >> 1));
      depth = 0;
      column = 0;
      atStart = true;
      continue;
    }
    if (!atStart) continue;
    if (code === 32) column += depth === 0 ? 1 : 0;
    else if (code === 9) column += depth === 0 ? 4 : 0;
    else if (code === 62 /* > */) depth++;
    else if ((code === 45 || code === 42 || code === 43) /* - * + */ && isSpaceOrEnd(text, i + 1)) depth++;
    else if (code >= 48 && code <= 57 /* 0-9 */) {
      let end = i;
      while (end < text.length && end - i < 9 && text.charCodeAt(end) >= 48 && text.charCodeAt(end) <= 57) end++;
      const after = text.charCodeAt(end);
      if ((after === 46 || after === 41) /* . ) */ && isSpaceOrEnd(text, end + 1)) {
        depth++;
        i = end;
      } else atStart = false;
    } else atStart = false;
  }
  return Math.max(deepest, depth + (column >> 1));
}

function isSpaceOrEnd(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return Number.isNaN(code) || code === 32 || code === 9 || code === 10;
}

/** A text shown as escaped, preformatted plain text, with the reason. */
export function plainTextHtml(text: string, reason: string): string {
  return `<div class="note">Shown as plain text: ${escapeHtml(reason)}.</div><pre class="markdown-source">${escapeHtml(text)}</pre>`;
}

/** plainTextHtml for text of any size (a 10 MiB message), without blocking the event loop. */
export async function plainTextHtmlInSlices(text: string, reason: string): Promise<string> {
  return `<div class="note">Shown as plain text: ${escapeHtml(reason)}.</div><pre class="markdown-source">${await escapeHtmlInSlices(text)}</pre>`;
}
