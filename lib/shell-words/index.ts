/**
 * Words as a POSIX shell reads them back, for the command lines Atomic prints for a user to run
 * (hints, `atomic mcp add`) or hands to a shell (an extension's environment as `export` lines).
 */

const SAFE = /^[\w@%+=:,./-]+$/;
/** What a shell still expands inside double quotes: the quote itself (\x22), $, the backquote (\x60), the backslash, history's !. */
const EXPANDED_IN_DOUBLE_QUOTES = /[\x22$\x60\\!]/;

/**
 * `word` as is when nothing in it is special to a shell, else quoted. `single` (the default)
 * always uses single quotes, which keep everything literal; `readable` uses double quotes when
 * the word holds nothing a shell expands inside them (`"my dir"` reads better in a sentence).
 */
export function shellWord(word: string, style: "single" | "readable" = "single"): string {
  if (SAFE.test(word)) return word;
  if (style === "readable" && !EXPANDED_IN_DOUBLE_QUOTES.test(word)) return `"${word}"`;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
