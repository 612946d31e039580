/**
 * `--listen ws://HOST:PORT`: where a WebSocket listener binds. Loopback (127.0.0.0/8, ::1,
 * localhost) unless `--allow-remote`; no TLS in-process (`wss://` is refused with what to do
 * instead: a tunnel or a TLS proxy in front, docs/server.md); port 0 picks a free one.
 */
import { UsageError } from "../../kernel/index.js";
import { isLoopbackHost } from "./http-guard.js";

export interface WsAddress {
  /** The address to bind, without brackets (`127.0.0.1`, `::1`, `localhost`). */
  host: string;
  port: number;
}

export function parseWsUrl(url: string, allowRemote: boolean): WsAddress {
  if (url.startsWith("wss://"))
    throw new UsageError(
      `Cannot listen on ${url}: atomic serve speaks no TLS itself; listen on ws://127.0.0.1:PORT and put a TLS proxy or an SSH tunnel in front (docs/server.md)`,
    );
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`Invalid --listen "${url}": expected ws://HOST:PORT`);
  }
  if (parsed.username || parsed.password || parsed.search || parsed.hash || (parsed.pathname !== "/" && parsed.pathname !== ""))
    throw new UsageError(`Invalid --listen "${url}": expected ws://HOST:PORT, with no path, query or credentials`);
  // The URL parser drops a scheme's default port (80), so a port is read from the text itself.
  const port = /:(\d+)\/?$/.exec(url)?.[1];
  if (port === undefined || Number(port) > 65535) throw new UsageError(`Invalid --listen "${url}": expected ws://HOST:PORT with a port (0 picks a free one)`);
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  if (!allowRemote && !isLoopbackHost(host.includes(":") ? `[${host}]` : host))
    throw new UsageError(`Refusing to listen on ${url}: ${host} is not a loopback address; add --allow-remote to serve the network (behind a TLS proxy, docs/server.md)`);
  return { host, port: Number(port) };
}

/** The URL a listener serves, with the port it got. */
export function wsUrl(host: string, port: number): string {
  return `ws://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/** Where a browser on this machine reaches a listener: an unspecified bind address means loopback. */
export function localHttpUrl(host: string, port: number): string {
  const reachable = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "::1" : host;
  return `http://${reachable.includes(":") ? `[${reachable}]` : reachable}:${port}/`;
}
