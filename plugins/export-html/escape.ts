/**
 * Escaping for the export page, kept free of the markdown libraries so the main thread can
 * build the page without loading them (markdown renders in a worker). Both functions are linear
 * in their input and take a fast path when there is nothing to escape.
 */

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const SPECIAL = /[&<>"']/;
const SPECIALS = /[&<>"']/g;

/** Escapes text for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  // Most strings (timestamps, names, plain prose) have nothing to escape: no copy, no callback.
  if (!SPECIAL.test(text)) return text;
  // Short strings (markdown's inline tokens, titles): a char loop is ~2x faster than a replace
  // with a callback; on long text the replace wins (fewer concatenations).
  return text.length > 256 ? text.replace(SPECIALS, (char) => ESCAPES[char]!) : escapeShort(text);
}

function escapeShort(text: string): string {
  let out = "";
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    let replacement: string;
    switch (text.charCodeAt(i)) {
      case 38:
        replacement = "&amp;";
        break;
      case 60:
        replacement = "&lt;";
        break;
      case 62:
        replacement = "&gt;";
        break;
      case 34:
        replacement = "&quot;";
        break;
      case 39:
        replacement = "&#39;";
        break;
      default:
        continue;
    }
    out += text.slice(last, i) + replacement;
    last = i + 1;
  }
  return out + text.slice(last);
}

const JSON_TOKEN = /("(?:\\.|[^"\\])*")(\s*:)?|\b(true|false|null)\b|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * JSON (as JSON.stringify writes it) with highlight.js's class names, escaped. A single regex
 * pass: highlight.js itself is ~20x slower, which adds up over thousands of tool calls.
 */
export function highlightJson(json: string): string {
  let html = "";
  let last = 0;
  for (const match of json.matchAll(JSON_TOKEN)) {
    html += escapeHtml(json.slice(last, match.index));
    const [token, string, colon, literal] = match;
    if (string !== undefined) {
      html += colon === undefined ? span("string", string) : span("attr", string) + escapeHtml(colon);
    } else html += span(literal !== undefined ? "literal" : "number", token);
    last = match.index + token.length;
  }
  return html + escapeHtml(json.slice(last));
}

function span(kind: string, text: string): string {
  return `<span class="hljs-${kind}">${escapeHtml(text)}</span>`;
}

/** Work on large strings is cut into pieces of this many characters, with a turn of the event loop between. */
export const SLICE_CHARS = 1024 * 1024;

/**
 * `text` in pieces of at most `maxChars`, never splitting a surrogate pair (a lone half would be
 * encoded as U+FFFD and corrupt the character).
 */
export function* textSlices(text: string, maxChars = SLICE_CHARS): Generator<string> {
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + maxChars);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    yield text.slice(start, end);
    start = end;
  }
}

/** escapeHtml for text of any size, letting the event loop in between pieces. */
export async function escapeHtmlInSlices(text: string): Promise<string> {
  if (text.length <= SLICE_CHARS) return escapeHtml(text);
  const parts: string[] = [];
  for (const piece of textSlices(text)) {
    parts.push(escapeHtml(piece));
    await nextTurn();
  }
  return parts.join("");
}

/** Lets timers, stdin and signals in between slices of work. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
