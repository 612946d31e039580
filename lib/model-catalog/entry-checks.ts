/**
 * What a catalog may hold, whoever wrote it (the shipped data, `atomic models update` from any
 * URL, a hand-edited refreshed file): model ids that are ids, never a path that climbs out
 * (`../../evil`, `/etc/x`, `a\b`), names that print as text (no control characters, terminal
 * escapes, bidi overrides or zero-width characters), and a bounded number and size. Ids may hold
 * `/` (`accounts/fireworks/models/x`, `meta-llama/Llama-3.3-70B`), as the providers name them.
 */

/** The most models one provider's catalog may list (the largest shipped one lists 417). */
export const MAX_MODELS_PER_PROVIDER = 2_000;
export const MAX_ID_CHARS = 128;
export const MAX_NAME_CHARS = 128;
/** The most one refreshed catalog file may weigh (a full one of 2,000 models is about 1 MB). */
export const MAX_CATALOG_FILE_BYTES = 4 * 1024 * 1024;

const ID_CHARS = /^[A-Za-z0-9._:@+~/-]+$/;
/** Control (Cc: C0, DEL, C1 with ESC and CSI), format (Cf: bidi overrides, zero-width) and line/paragraph separators. */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** Why `id` is not a model id, or undefined. */
export function idProblem(id: string): string | undefined {
  if (id.length === 0) return "it is empty";
  if (id.length > MAX_ID_CHARS) return `it is ${id.length} characters long (the limit is ${MAX_ID_CHARS})`;
  if (!ID_CHARS.test(id)) return "it holds characters other than letters, digits and . _ : @ + ~ / -";
  if (id.startsWith("/")) return "it is an absolute path";
  if (id.split("/").some((segment) => segment === "" || segment === "." || segment === "..")) return 'it has an empty, "." or ".." path segment';
  return undefined;
}

/** Why `name` is not a display name, or undefined. */
export function nameProblem(name: string): string | undefined {
  if (name.trim().length === 0) return "it is empty";
  if (name.length > MAX_NAME_CHARS) return `it is ${name.length} characters long (the limit is ${MAX_NAME_CHARS})`;
  if (UNPRINTABLE.test(name)) return "it holds control, format or escape characters";
  return undefined;
}

/** A hostile string as it may be printed: unprintable characters as \u{..}, cut at 80 characters. */
export function visible(text: string): string {
  const shown = text.length > 80 ? `${text.slice(0, 77)}...` : text;
  const escaped = shown.replace(/["\\]/g, "\\$&").replace(new RegExp(UNPRINTABLE.source, "gu"), (char) => `\\u{${char.codePointAt(0)!.toString(16)}}`);
  return `"${escaped}"`;
}
