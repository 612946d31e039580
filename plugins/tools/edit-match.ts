/**
 * Finding `oldText` for the edit tool. Exact matching first; when that finds nothing, the two
 * mistakes models make most:
 *  - a trailing newline on the last line of a file that has none;
 *  - typography and whitespace: smart quotes, Unicode dashes and spaces, compatibility forms
 *    (NFKC) and trailing whitespace at line ends.
 * The fuzzy pass compares normalised copies but maps the hit back to the original text, so only
 * the matched span is replaced: the rest of the file keeps its exact bytes.
 */

const MAX_FUZZY_CHARS = 16 * 1024 * 1024;

export interface Match {
  /** Number of (non-overlapping) occurrences; the span is set only when it is exactly 1. */
  count: number;
  start: number;
  end: number;
  fuzzy: boolean;
  /** The match took in a newline the file does not have at its end. */
  eofNewline: boolean;
}

export function findMatch(original: string, oldText: string): Match {
  const exact = search(original, oldText);
  if (exact.count > 0) return { ...exact, fuzzy: false, eofNewline: false };

  const pad = oldText.endsWith("\n") && !original.endsWith("\n");
  const haystack = pad ? `${original}\n` : original;
  if (pad) {
    const padded = search(haystack, oldText);
    if (padded.count > 0) return { ...padded, end: Math.min(padded.end, original.length), fuzzy: false, eofNewline: true };
  }

  // Normalising costs a few bytes per char: very large files get exact matching only.
  if (haystack.length > MAX_FUZZY_CHARS) return { count: 0, start: -1, end: -1, fuzzy: true, eofNewline: false };
  const file = normalize(haystack);
  const needle = normalize(oldText).text;
  if (needle === "") return { count: 0, start: -1, end: -1, fuzzy: true, eofNewline: false };
  const fuzzy = search(file.text, needle);
  if (fuzzy.count !== 1) return { ...fuzzy, fuzzy: true, eofNewline: false };
  const start = file.from[fuzzy.start]!;
  const lastFrom = file.from[fuzzy.end - 1]!;
  const end = lastFrom + charWidth(haystack, lastFrom);
  return { count: 1, start, end: Math.min(end, original.length), fuzzy: true, eofNewline: end > original.length };
}

/** Non-overlapping occurrences, the way a left-to-right replacement would see them. */
function search(haystack: string, needle: string): { count: number; start: number; end: number } {
  let count = 0;
  let first = -1;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) {
    if (count === 0) first = at;
    count++;
  }
  return { count, start: first, end: first === -1 ? -1 : first + needle.length };
}

const SINGLE_QUOTES = /[\u2018\u2019\u201A\u201B\u2032]/;
const DOUBLE_QUOTES = /[\u201C\u201D\u201E\u201F\u2033]/;
const DASHES = /[\u2010-\u2015\u2212]/;
const SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/;

function normalizeChar(char: string): string {
  if (SINGLE_QUOTES.test(char)) return "'";
  if (DOUBLE_QUOTES.test(char)) return '"';
  if (DASHES.test(char)) return "-";
  if (SPACES.test(char)) return " ";
  return char.normalize("NFKC");
}

interface Normalized {
  text: string;
  /** For each UTF-16 unit of `text`: the index in the original where the char it came from starts. */
  from: Int32Array;
}

/** Normalised copy of `text` with a map back to the original; linear in its length. */
export function normalize(text: string): Normalized {
  let units = new Uint16Array(text.length + 16);
  let from = new Int32Array(text.length + 16);
  let n = 0;
  let lineStart = 0; // index in `units` where the current line starts
  const push = (unit: number, origin: number) => {
    if (n === units.length) {
      const grownUnits = new Uint16Array(units.length * 2);
      const grownFrom = new Int32Array(units.length * 2);
      grownUnits.set(units), grownFrom.set(from);
      (units = grownUnits), (from = grownFrom);
    }
    units[n] = unit;
    from[n++] = origin;
  };
  const trimLineEnd = () => {
    while (n > lineStart && (units[n - 1] === 32 || units[n - 1] === 9)) n--;
  };
  for (let i = 0; i < text.length; ) {
    const code = text.charCodeAt(i);
    if (code === 10) {
      trimLineEnd();
      push(10, i++);
      lineStart = n;
    } else if (code < 128) {
      push(code, i++);
    } else {
      const width = charWidth(text, i);
      const mapped = normalizeChar(text.slice(i, i + width));
      for (let j = 0; j < mapped.length; j++) push(mapped.charCodeAt(j), i);
      i += width;
    }
  }
  trimLineEnd();
  const parts: string[] = [];
  for (let k = 0; k < n; k += 8192) parts.push(String.fromCharCode(...units.subarray(k, Math.min(n, k + 8192))));
  return { text: parts.join(""), from: from.subarray(0, n) };
}

/** 2 for a surrogate pair starting at `index`, else 1. */
export function charWidth(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return code >= 0xd800 && code <= 0xdbff && index + 1 < text.length ? 2 : 1;
}
