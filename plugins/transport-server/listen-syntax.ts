/**
 * Whether a listener URL is written right, without opening anything: the `serve.listen` setting
 * is checked with it when the settings are read, so a slip there is a settings problem that
 * `atomic config` lists, not a surprise when `atomic serve` starts. Whether a ws:// address may
 * bind (loopback unless --allow-remote) depends on the flags: that is checked when it listens.
 */
import { parseWsUrl } from "./ws-url.js";

const FORMS = "stdio, unix:PATH or ws://HOST:PORT";

/** What was expected instead of `url`, or undefined when it is one of the forms. */
export function listenUrlProblem(url: string): string | undefined {
  if (url === "stdio" || url.startsWith("unix:")) return undefined;
  if (url.startsWith("wss://")) return "ws://HOST:PORT: atomic serve speaks no TLS itself (put a TLS proxy or an SSH tunnel in front, docs/server.md)";
  if (url.startsWith("ws://")) {
    try {
      parseWsUrl(url, true);
      return undefined;
    } catch (error) {
      return (error as Error).message.replace(/^Invalid --listen "[^"]*": expected /, "");
    }
  }
  const meant = listenUrlMeant(url);
  return `${FORMS}${meant ? ` (did you mean ${meant}?)` : ""}`;
}

/**
 * The listener URL a user most likely meant by what they wrote instead: a port (`8080`, `:8080`),
 * a host and port, an http(s) URL for the WebSocket one, a socket file's path. Undefined when
 * nothing is close: a suggestion must never be a guess that surprises.
 */
export function listenUrlMeant(url: string): string | undefined {
  const port = /^:?(\d{1,5})$/.exec(url);
  if (port) return `ws://127.0.0.1:${port[1]}`;
  const http = /^http(s?):\/\/(.+)$/.exec(url);
  if (http) return `ws${http[1]}://${http[2]!.replace(/\/$/, "")}`;
  if (/^(\[[0-9a-f:]+\]|[a-z0-9.-]+):\d{1,5}$/i.test(url)) return `ws://${url}`;
  if (/^(\/|\.{1,2}\/|~\/)/.test(url) || url.endsWith(".sock")) return `unix:${url}`;
  return undefined;
}
