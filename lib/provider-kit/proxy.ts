/**
 * The proxy a provider request goes through, from the environment as curl, npm and most CLIs
 * read it: `HTTPS_PROXY` for https URLs, `HTTP_PROXY` for http, `ALL_PROXY` for either, each
 * also in lower case, and `NO_PROXY` (host names, `.suffix` / `*.suffix`, `host:port`, or `*`),
 * as `proxy-from-env` applies them. A loopback host (localhost, 127.0.0.0/8, ::1) is never
 * proxied: a local model server or test server is reached directly, whatever the proxy is.
 * `http:` and `https:` proxies are supported (https targets through CONNECT). The agents are
 * loaded only when a proxy variable is set, and kept per proxy (their connections are reused).
 */
import type { Agent } from "node:http";

const PROXY_VARIABLES = ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"];

const agents = new Map<string, Promise<Agent>>();

/** The proxy URL for `url` per the environment, or undefined to connect directly. */
export async function proxyFor(url: URL): Promise<string | undefined> {
  if (!PROXY_VARIABLES.some((name) => process.env[name])) return undefined;
  if (isLoopback(url.hostname)) return undefined;
  const { getProxyForUrl } = await import("proxy-from-env");
  return getProxyForUrl(url.href) || undefined;
}

export interface ProxyRoute {
  agent: Agent;
  /** The proxy's URL with its password hidden (for messages). */
  shown: string;
}

/** How `url` goes through the environment's proxy, or undefined when it goes direct. */
export async function proxyRouteFor(url: URL): Promise<ProxyRoute | undefined> {
  const proxy = await proxyFor(url);
  if (!proxy) return undefined;
  const key = `${url.protocol} ${proxy}`;
  let agent = agents.get(key);
  if (!agent) {
    agent = createAgent(url.protocol, proxy);
    agents.set(key, agent);
    // A bad proxy URL is reported on every request, not cached as a broken agent.
    agent.catch(() => agents.delete(key));
  }
  return { agent: await agent, shown: redacted(proxy) };
}

/**
 * An https request whose answer did not come over TLS was answered by the proxy itself: it
 * refused the tunnel (the agent hands its reply on as the response). Said as such, not as the
 * model server's status.
 */
export function proxyRefusal(route: ProxyRoute, url: URL, status: number, statusText: string, socket: unknown): Error | undefined {
  if (url.protocol !== "https:" || (socket as { encrypted?: boolean } | null)?.encrypted === true) return undefined;
  return new Error(`The proxy ${route.shown} refused the connection to ${url.host}: ${status}${statusText ? ` ${statusText}` : ""}`);
}

async function createAgent(protocol: string, proxy: string): Promise<Agent> {
  let proxyUrl: URL;
  try {
    proxyUrl = new URL(proxy);
  } catch {
    throw new TypeError(`The proxy set in the environment is not a URL: ${redacted(proxy)}`);
  }
  if (proxyUrl.protocol !== "http:" && proxyUrl.protocol !== "https:") {
    throw new TypeError(`The proxy ${redacted(proxy)} uses ${proxyUrl.protocol.slice(0, -1)}; only http and https proxies are supported`);
  }
  if (protocol === "https:") {
    const { HttpsProxyAgent } = await import("https-proxy-agent");
    return new HttpsProxyAgent(proxyUrl, { keepAlive: true });
  }
  const { HttpProxyAgent } = await import("http-proxy-agent");
  return new HttpProxyAgent(proxyUrl, { keepAlive: true });
}

export function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** A proxy URL as it may be shown: without its password. */
function redacted(proxy: string): string {
  return proxy.replace(/\/\/([^:/@]*):[^@/]*@/, "//$1:***@");
}
