/**
 * The checks every HTTP request to a WebSocket listener passes before anything else happens
 * (DECISIONS, Security), as pure functions of its headers: no token in the URL (a URL lands in
 * proxy logs and browser history), a loopback `Host` unless the server was started with
 * `--allow-remote` (DNS rebinding: a foreign page whose name resolves to 127.0.0.1 sends its own
 * name), an `Origin` that is the page's own or listed in `serve.allowOrigins` (no Origin: not a
 * browser), and for an upgrade the bearer token, from `Authorization: Bearer` or the subprotocol
 * `atomic.bearer.<token>` (a browser cannot set headers on a WebSocket).
 */
import { isIPv4, isIPv6 } from "node:net";
import { sameToken } from "./token.js";

export const BEARER_PROTOCOL = "atomic.bearer.";

export interface GuardPolicy {
  token: string;
  allowRemote: boolean;
  /** Origins accepted besides the page's own, as a browser writes them (`https://app.example`). */
  allowOrigins: readonly string[];
}

export interface RequestHead {
  url: string;
  host: string | undefined;
  origin: string | undefined;
  authorization: string | undefined;
  /** `Sec-WebSocket-Protocol`, as sent (comma-separated). */
  protocols: string | undefined;
}

export type Refusal = { status: 400 | 401 | 403; message: string };

/** Query parameters that look like a credential. */
const CREDENTIAL_PARAMS = new Set(["token", "access_token", "bearer", "auth", "authorization"]);

/** The refusal for any request (a page, a health check, an upgrade), or undefined when it may go on. */
export function checkRequest(head: RequestHead, policy: GuardPolicy): Refusal | undefined {
  if (tokenInQuery(head.url, policy.token))
    return {
      status: 400,
      message:
        "A token in the URL is refused: URLs land in logs and browser history. Send it as Authorization: Bearer <token> or the WebSocket subprotocol atomic.bearer.<token>, and rotate it (delete <agent dir>/serve/token and restart)",
    };
  if (!policy.allowRemote && !isLoopbackHost(head.host))
    return {
      status: 403,
      message: `Host ${JSON.stringify(head.host ?? "")} is not a loopback name: this server answers only 127.0.0.1, [::1] and localhost (start it with --allow-remote to serve other names)`,
    };
  if (head.origin !== undefined && !originAllowed(head.origin, head.host, policy.allowOrigins))
    return { status: 403, message: `Origin ${head.origin} is not allowed: add it to the serve.allowOrigins setting to let its pages connect` };
  return undefined;
}

/** The token check of an upgrade: the subprotocol to echo (when the token came as one), or the 401. */
export function checkBearer(head: RequestHead, token: string): { protocol: string | undefined } | Refusal {
  const offered = bearerProtocol(head.protocols);
  const fromHeader = /^Bearer[ \t]+(\S+)\s*$/i.exec(head.authorization ?? "")?.[1];
  const given = [fromHeader, offered?.slice(BEARER_PROTOCOL.length)].filter((value): value is string => value !== undefined);
  if (given.length === 0)
    return {
      status: 401,
      message: "A token is required: send Authorization: Bearer <token> or the WebSocket subprotocol atomic.bearer.<token> (the token is in <agent dir>/serve/token)",
    };
  // Every token given must be right: a wrong one next to a right one is still a wrong guess.
  let right = true;
  for (const value of given) right = sameToken(value, token) && right;
  if (!right) return { status: 401, message: "The token is wrong: it is in <agent dir>/serve/token" };
  return { protocol: offered };
}

/** The `atomic.bearer.<token>` subprotocol among those offered. */
export function bearerProtocol(protocols: string | undefined): string | undefined {
  if (!protocols) return undefined;
  return protocols
    .split(",")
    .map((protocol) => protocol.trim())
    .find((protocol) => protocol.startsWith(BEARER_PROTOCOL));
}

function tokenInQuery(url: string, token: string): boolean {
  const query = url.indexOf("?");
  if (query < 0) return false;
  const params = new URLSearchParams(url.slice(query + 1));
  for (const [name, value] of params) if (CREDENTIAL_PARAMS.has(name.toLowerCase()) || value.includes(token)) return true;
  return url.includes(token);
}

/** `localhost`, 127.0.0.0/8 or ::1, with or without a port. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = hostName(host).toLowerCase();
  if (name === "localhost" || name === "localhost.") return true;
  if (isIPv4(name)) return name.startsWith("127.");
  if (isIPv6(name)) return name === "::1" || /^::ffff:127\./.test(name);
  return false;
}

/** A Host header's name: `[::1]:8080` → `::1`, `127.0.0.1:8080` → `127.0.0.1`. */
function hostName(host: string): string {
  if (host.startsWith("[")) {
    const end = host.indexOf("]");
    return end < 0 ? host : host.slice(1, end);
  }
  const colon = host.lastIndexOf(":");
  return colon >= 0 && host.indexOf(":") === colon ? host.slice(0, colon) : host;
}

/** The page's own origin (the same host and port it was served from) or one the settings list. */
function originAllowed(origin: string, host: string | undefined, allowOrigins: readonly string[]): boolean {
  const normal = origin.toLowerCase().replace(/\/+$/, "");
  if (allowOrigins.some((allowed) => allowed.toLowerCase().replace(/\/+$/, "") === normal)) return true;
  if (!host) return false;
  const parsed = parseUrl(origin);
  const own = parseUrl(`http://${host}`);
  return parsed !== undefined && own !== undefined && (parsed.protocol === "http:" || parsed.protocol === "https:") && parsed.host === own.host;
}

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
