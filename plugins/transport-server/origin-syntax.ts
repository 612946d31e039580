/**
 * Whether a `serve.allowOrigins` entry is an origin, the only thing a browser's `Origin` header
 * holds (`https://app.example.com`, a port when it is not the scheme's own). The server compares
 * whole origins, so a host alone, a path, or a `*` would match no page, and would look like it
 * allowed one: each is a settings problem, named with the origin meant when there is one.
 */

export const ORIGIN_EXPECTED = "an origin such as https://app.example.com";

/** What was expected instead of `text`, or undefined when it is an http(s) origin. */
export function allowedOriginProblem(text: string): string | undefined {
  if (text.includes("*")) return `${ORIGIN_EXPECTED} (wildcards are not supported: list each origin)`;
  if (text.trim().toLowerCase() === "null") return `${ORIGIN_EXPECTED} ("null", the origin of local files and sandboxed frames, cannot be allowed: any such page would be let in)`;
  const schemed = /^[a-z][a-z0-9+.-]*:\/\//i.test(text);
  const url = parse(schemed ? text : `http://${text}`);
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "") return ORIGIN_EXPECTED;
  // Only a scheme and an authority without a user name, as an `Origin` header has them; trailing slashes are dropped when compared.
  const parts = /^https?:\/\/([^/?#]*)(.*)$/i.exec(text);
  if (parts && !parts[1]!.includes("@") && /^\/*$/.test(parts[2]!)) return undefined;
  const loopback = url.hostname === "localhost" || url.hostname === "[::1]" || url.hostname.startsWith("127.");
  const meant = schemed ? url.origin : `${loopback ? "http" : "https"}://${url.host}`;
  const hostLike = loopback || url.hostname.includes(".") || url.hostname.startsWith("[");
  return hostLike ? `${ORIGIN_EXPECTED} (did you mean ${meant}?)` : ORIGIN_EXPECTED;
}

/** The entry as browsers write it (`HTTPS://App.Example.com:443/` is `https://app.example.com`), for comparing with an `Origin` header. */
export function normalOrigin(text: string): string {
  return parse(text)?.origin ?? text;
}

function parse(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
