/**
 * Where login and refresh requests go. Always the provider's own address, except in tests: with
 * `ATOMIC_OAUTH_TEST_ORIGIN` set to a loopback origin (`http://127.0.0.1:<port>`), every OAuth
 * address `https://<host>/<path>` becomes `<origin>/<host>/<path>`, so a fake server on this
 * machine answers for every provider. Only a loopback origin is accepted, so the variable can
 * never send a token to another machine; anything else is an error, never a silent fallback.
 */
export const TEST_ORIGIN_ENV = "ATOMIC_OAUTH_TEST_ORIGIN";

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** The loopback origin the tests set, or undefined (the normal case). */
export function testOrigin(env: NodeJS.ProcessEnv): string | undefined {
  const value = env[TEST_ORIGIN_ENV];
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${TEST_ORIGIN_ENV} must be a loopback URL such as http://127.0.0.1:8080, not ${JSON.stringify(value)}`);
  }
  if (url.protocol !== "http:" || !LOOPBACK_HOSTS.has(url.hostname) || (url.pathname !== "/" && url.pathname !== "")) {
    throw new Error(`${TEST_ORIGIN_ENV} must be a loopback origin (http://127.0.0.1:<port>), not ${value}: it is for tests, and never sends a token off this machine`);
  }
  return url.origin;
}

/** `url`, or under the test origin the same host and path on the loopback server. */
export function oauthEndpoint(url: string, env: NodeJS.ProcessEnv): string {
  const origin = testOrigin(env);
  if (!origin) return url;
  const parsed = new URL(url);
  // The rest of the address as written (no "/" added to a bare host).
  const rest = url.startsWith(parsed.origin) ? url.slice(parsed.origin.length) : `${parsed.pathname}${parsed.search}`;
  return `${origin}/${parsed.host}${rest}`;
}
