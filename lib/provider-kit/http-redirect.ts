/**
 * The one redirect a provider request may follow, decided here so it goes through the same
 * proxy and the same checks as the first request (the global fetch would re-send it outside
 * the proxy). A request carrying credentials (an API key, a token, a cookie, or a secret in
 * its query string) follows a redirect only within its origin: its key, the conversation and a
 * user's custom headers are not sent to a host the user never configured. The method and body
 * change as the fetch standard says (303, and 301/302 after a POST, become a bodiless GET).
 */

export interface Hop {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | null | undefined;
}

export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** How many redirects a request follows. */
export const MAX_REDIRECTS = 1;

/** Header names whose value authenticates the request (matched in lower case). */
const CREDENTIAL_HEADER = /^(?:authorization|proxy-authorization|cookie)$|api[-_]?key|token|secret|auth|password|session|signature/;
/** Query parameters that carry a key (`?key=` is Gemini's). */
const CREDENTIAL_QUERY = /^(?:key|api[-_]?key|access[-_]?token|token|auth|sig|signature|code)$/i;

export function carriesCredentials(hop: Hop): boolean {
  if (hop.url.username || hop.url.password) return true;
  if (Object.keys(hop.headers).some((name) => CREDENTIAL_HEADER.test(name.toLowerCase()))) return true;
  return [...hop.url.searchParams.keys()].some((name) => CREDENTIAL_QUERY.test(name));
}

/** The request to send for a `status` redirect to `location`, or an error saying why not. */
export function redirectHop(hop: Hop, status: number, location: string, followed: number): Hop {
  let target: URL;
  try {
    target = new URL(location, hop.url);
  } catch {
    throw refused(`${hop.url.host} redirected to ${JSON.stringify(location)}, which is not a URL`);
  }
  if (followed >= MAX_REDIRECTS) {
    throw refused(`${hop.url.host} redirected again, to ${target.host}`, `a provider request follows ${MAX_REDIRECTS}; point the model's baseUrl at the final address`);
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") {
    throw refused(`${hop.url.host} redirected to a ${target.protocol.slice(0, -1)} URL`, "only http and https ones are");
  }
  if (target.origin !== hop.url.origin && carriesCredentials(hop)) {
    const scheme = target.protocol !== hop.url.protocol ? ` (${target.protocol.slice(0, -1)})` : "";
    throw refused(
      `${hop.url.host} redirected to another host, ${target.host}${scheme}`,
      `the request carries credentials, which stay with ${hop.url.host}; point the model's baseUrl at ${target.origin} if that host is meant`,
    );
  }
  const toGet = status === 303 ? hop.method !== "HEAD" : (status === 301 || status === 302) && hop.method === "POST";
  if (!toGet) return { ...hop, url: target };
  const headers = Object.fromEntries(Object.entries(hop.headers).filter(([name]) => !/^content-/i.test(name)));
  return { url: target, method: "GET", headers, body: undefined };
}

/** Every refusal says "the redirect was not followed": the retry classification reads it as final. */
export function refused(what: string, why?: string): TypeError {
  return new TypeError(`${what}: the redirect was not followed${why ? ` (${why})` : ""}`);
}
