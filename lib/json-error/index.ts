/**
 * `JSON.parse` errors as a person editing the file needs them: where, as line and column (V8 on
 * Node 20 says only `at position 57`, a character count nobody can find in an editor).
 */

/** The parse error's message with its place as `line L, column C` (1-based) in `text`, the text that was parsed. */
export function describeJsonError(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const at = /\bat position (\d+)/.exec(message);
  const offset = at ? Number(at[1]) : /end of JSON input|Unterminated/i.test(message) ? text.length : undefined;
  const what = message
    .replace(/\s*\(line \d+ column \d+\)/, "")
    .replace(/\s*(in JSON )?at position \d+/, "")
    .replace(/^Unexpected end of JSON input$/, "Unexpected end of the file")
    .trim();
  if (offset === undefined) return what;
  const { line, column } = lineAndColumn(text, Math.min(offset, text.length));
  return `${what} at line ${line}, column ${column}`;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
