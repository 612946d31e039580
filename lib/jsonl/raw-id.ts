/**
 * Ids are echoed exactly as sent (docs/decisions.md). A numeric id's JSON text can carry more than a
 * double holds (`12345678901234567890`, `-0`, `1.50`): the response repeats the original text.
 * Only the top level of the record is scanned, and only when the parsed id is a number whose
 * canonical text differs, so the common case costs nothing.
 */

/** The original JSON text of the top-level `"id"` member when re-serialising the number would change it. */
export function rawNumericId(line: string, parsedId: unknown): string | undefined {
  if (typeof parsedId !== "number") return undefined;
  const raw = findTopLevelId(line);
  return raw !== undefined && raw !== JSON.stringify(parsedId) ? raw : undefined;
}

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);

/** Text of the value of the last top-level "id" key (JSON.parse keeps the last duplicate). */
function findTopLevelId(line: string): string | undefined {
  let found: string | undefined;
  let depth = 0;
  let i = 0;
  let expectKey = false;
  while (i < line.length) {
    const ch = line[i]!;
    if (ch === '"') {
      const end = stringEnd(line, i);
      if (depth === 1 && expectKey) {
        const key = line.slice(i, end + 1);
        let j = end + 1;
        while (WHITESPACE.has(line[j] ?? "")) j++;
        if (line[j] === ":") {
          j++;
          while (WHITESPACE.has(line[j] ?? "")) j++;
          if (JSON.parse(key) === "id") {
            const start = j;
            while (j < line.length && /[-+0-9.eE]/.test(line[j]!)) j++;
            if (j > start) found = line.slice(start, j);
          }
          i = j;
          expectKey = false;
          continue;
        }
      }
      i = end + 1;
      continue;
    }
    if (ch === "{" || ch === "[") {
      depth++;
      expectKey = ch === "{" && depth === 1;
    } else if (ch === "}" || ch === "]") depth--;
    else if (ch === "," && depth === 1) expectKey = true;
    i++;
  }
  return found;
}

/** Index of the closing quote of the string starting at `start`. */
function stringEnd(line: string, start: number): number {
  let i = start + 1;
  while (i < line.length) {
    const ch = line[i];
    if (ch === "\\") i += 2;
    else if (ch === '"') return i;
    else i++;
  }
  return line.length - 1;
}

/** A serialised response with its `id` member's text replaced by the original (ids come first). */
export function withRawId(serialised: string, raw: string): string {
  const match = /^\{"id":(-?[0-9.eE+-]+),/.exec(serialised);
  return match ? `{"id":${raw},${serialised.slice(match[0].length)}` : serialised;
}
