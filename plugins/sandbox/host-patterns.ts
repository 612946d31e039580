/**
 * The network allow-list: `example.com` (that host), `*.example.com` (its subdomains, not itself),
 * `127.0.0.1`, `[::1]`; each optionally `:port` (else any port). Case-insensitive.
 */
export interface HostPattern {
  host: string;
  subdomains: boolean;
  port?: number;
}

export function parseHostPattern(pattern: string): HostPattern {
  let rest = pattern.trim().toLowerCase();
  let port: number | undefined;
  const portMatch = /:(\d{1,5})$/.exec(rest);
  if (portMatch && (!rest.startsWith("[") || rest.includes("]:"))) {
    port = Number(portMatch[1]);
    rest = rest.slice(0, -portMatch[0].length);
  }
  const subdomains = rest.startsWith("*.");
  if (subdomains) rest = rest.slice(2);
  return { host: rest.replace(/^\[|\]$/g, ""), subdomains, ...(port !== undefined ? { port } : {}) };
}

/** Whether `host:port` (host as a request names it, brackets around IPv6 optional) is allowed. */
export function isHostAllowed(patterns: readonly HostPattern[], host: string, port: number): boolean {
  const name = host
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
  return patterns.some((pattern) => {
    if (pattern.port !== undefined && pattern.port !== port) return false;
    return pattern.subdomains ? name.endsWith(`.${pattern.host}`) : name === pattern.host;
  });
}
