/**
 * Template arguments and substitution, pure. Arguments split like a shell line: whitespace
 * separates, single or double quotes group (and are removed), `""` is an empty argument, a quote
 * that is never closed is an ordinary character (so `it's` stays `it's`). One pass over the
 * template substitutes `$1`..`$N`, `$@`/`$ARGUMENTS` (all, space-joined), `${N:-default}`,
 * `${@:-default}`, `${@:N}`, `${@:N:L}`; a missing argument is empty; `\$` is a literal `$`.
 * Substituted text is never scanned again, so an argument holding `$1` stays as typed.
 *
 * An expansion may add at most MAX_EXPANSION_GROWTH characters to the arguments typed: a
 * template (perhaps a cloned repository's) that repeats `$@` 130,000 times would otherwise turn
 * one line into a 13 MB prompt, sent with every later request.
 */

/** Characters an expansion may add to its arguments' own length. */
export const MAX_EXPANSION_GROWTH = 1024 * 1024;

export class ExpansionTooLarge extends Error {}

/** The arguments of `/name <text>`. */
export function splitArguments(text: string): string[] {
  const args: string[] = [];
  let current = "";
  let inToken = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"' || char === "'") {
      const close = text.indexOf(char, i + 1);
      if (close >= 0) {
        current += text.slice(i + 1, close);
        inToken = true;
        i = close;
        continue;
      }
      // Never closed: an apostrophe or a stray quote, kept as typed.
      current += char;
      inToken = true;
    } else if (/\s/.test(char)) {
      if (inToken) args.push(current);
      current = "";
      inToken = false;
    } else {
      current += char;
      inToken = true;
    }
  }
  if (inToken) args.push(current);
  return args;
}

const PLACEHOLDER = /\\\$|\$(?:(\d+)|(ARGUMENTS|@)|\{([^}\n]*)\})/g;

/** `template` with its placeholders replaced by `args`; throws ExpansionTooLarge past the growth limit. */
export function expandTemplate(template: string, args: readonly string[], maxGrowth = MAX_EXPANSION_GROWTH): string {
  const all = args.join(" ");
  const positional = (n: number) => (n >= 1 ? (args[n - 1] ?? "") : undefined);
  const limit = all.length + maxGrowth;
  // Counted as it goes, so an oversized expansion stops before it is built.
  let length = template.length;
  const grow = (match: string, replacement: string) => {
    length += replacement.length - match.length;
    if (length > limit)
      throw new ExpansionTooLarge(`the template expands to more than ${limit} characters (its arguments' ${all.length} plus ${maxGrowth}, the most a template may add)`);
    return replacement;
  };
  return template.replace(PLACEHOLDER, (match, index: string | undefined, every: string | undefined, braced: string | undefined) => {
    if (match === "\\$") return "$";
    if (index !== undefined) return grow(match, positional(Number(index)) ?? match);
    if (every !== undefined) return grow(match, all);
    return grow(match, expandBraced(braced!, args, all, positional) ?? match);
  });
}

/** `${...}` forms; undefined leaves the text as written (an unknown form is not ours). */
function expandBraced(inner: string, args: readonly string[], all: string, positional: (n: number) => string | undefined): string | undefined {
  const simple = /^(\d+|@|ARGUMENTS)(?::-([\s\S]*))?$/.exec(inner);
  if (simple) {
    const value = /^\d+$/.test(simple[1]!) ? positional(Number(simple[1])) : all;
    if (value === undefined) return undefined;
    return simple[2] !== undefined && value === "" ? simple[2] : value;
  }
  const slice = /^@:(\d+)(?::(\d+))?$/.exec(inner);
  if (slice) {
    const start = Math.max(1, Number(slice[1])) - 1;
    const end = slice[2] === undefined ? undefined : start + Number(slice[2]);
    return args.slice(start, end).join(" ");
  }
  return undefined;
}
