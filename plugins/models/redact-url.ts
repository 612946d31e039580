/**
 * Base URLs as clients see them: a key in a models.json `baseUrl` (`?key=...`, `user:pass@`)
 * must not show in `get_state` or `get_available_models`. The shown URL keeps its shape with
 * the secret parts replaced; requests use the original.
 */
const HIDDEN = "***";

/** The URL with query values and user info replaced by `***`; unparseable text is returned as is. */
export function redactUrl(url: string): string {
  // No query and no user info: nothing to hide, and no URL to parse (catalogs list hundreds).
  if (!url.includes("?") && !url.includes("@")) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (!parsed.search && !parsed.username && !parsed.password) return url;
  if (parsed.username) parsed.username = HIDDEN;
  if (parsed.password) parsed.password = HIDDEN;
  const redacted = new URLSearchParams();
  for (const [name, value] of parsed.searchParams) redacted.append(name, value === "" ? "" : HIDDEN);
  parsed.search = redacted.toString().replaceAll("%2A%2A%2A", HIDDEN);
  return parsed.toString();
}
