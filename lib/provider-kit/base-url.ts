/**
 * A base URL with a query string (`https://gw.example/v1?key=...`, Azure's `?api-version=`) as
 * the SDKs need it: the SDKs append paths to the base URL as text, which would land inside the
 * query, so the query travels as their `defaultQuery` instead.
 */
export function splitBaseUrl(url: string): { baseURL: string; query?: Record<string, string> } {
  const at = url.indexOf("?");
  if (at < 0) return { baseURL: url };
  const query = Object.fromEntries(new URLSearchParams(url.slice(at + 1)));
  return { baseURL: url.slice(0, at), ...(Object.keys(query).length > 0 ? { query } : {}) };
}
