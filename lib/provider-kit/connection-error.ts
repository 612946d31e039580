/**
 * What a provider request that got no answer failed with, said so that the user can act on it:
 * the host (and the proxy, when there is one) and the cause with its code (undici says only
 * "fetch failed", and the SDKs only "Connection error."). The code is kept in the text: the
 * retry classification (errors.ts) reads it to tell a lookup of a name that does not exist or
 * a rejected certificate, which fail the same way again, from a reset connection.
 */

/** The error `httpFetch` rejects with when `url` could not be reached or answered nothing. */
export function connectionError(url: URL, cause: unknown, proxy?: string): TypeError {
  const via = proxy ? ` through the proxy ${proxy}` : "";
  return new TypeError(`Request to ${url.host}${via} failed: ${causeText(cause)}`, { cause });
}

function causeText(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  // Node puts several attempts (IPv6 then IPv4) in one AggregateError with an empty message.
  const inner = cause instanceof AggregateError && cause.errors.length > 0 && !cause.message ? (cause.errors[0] as Error) : cause;
  const code = (inner as NodeJS.ErrnoException).code ?? (cause as NodeJS.ErrnoException).code;
  const message = inner.message || inner.name;
  return code && !message.includes(code) ? `${message} (${code})` : message;
}
