/**
 * JSON as Atomic's configuration files may be written (models.json as pi reads it, and
 * settings.json and mcp.json alike, so one file format holds for all three): `//` line comments
 * and trailing commas. They are blanked out with spaces rather than removed, so the position in
 * a parse error is the one in the file as written (describeJsonError turns it into a line and
 * column). Plain JSON is parsed once, exactly as before: the blanking runs only when that fails,
 * which keeps it off the start of every process whose files are plain JSON.
 */

/** A string literal, or a `//` comment up to the end of its line (strings first, so `"a//b"` stays). */
const STRING_OR_COMMENT = /"(?:\\.|[^"\\])*"|\/\/[^\n]*/g;
/** A string literal, or a comma with only blanks before the `}` or `]` that closes its list. */
const STRING_OR_TRAILING_COMMA = /"(?:\\.|[^"\\])*"|,(?=\s*[}\]])/g;

export interface JsoncValue {
  value: unknown;
  /** The text held `//` comments: writing the value back would drop them. */
  comments: boolean;
}

/** Parses `text` as JSON with `//` comments and trailing commas; throws JSON.parse's error, its position in `text`. */
export function parseJsonc(text: string): unknown {
  return readJsonc(text).value;
}

/** As parseJsonc, and whether the text had comments (a writer must not rewrite such a file silently). */
export function readJsonc(text: string): JsoncValue {
  try {
    return { value: JSON.parse(text), comments: false };
  } catch (error) {
    const uncommented = text.replace(STRING_OR_COMMENT, (match) => (match.startsWith('"') ? match : " ".repeat(match.length)));
    const blanked = uncommented.replace(STRING_OR_TRAILING_COMMA, (match) => (match === "," ? " " : match));
    if (blanked === text) throw error;
    return { value: JSON.parse(blanked), comments: uncommented !== text };
  }
}
