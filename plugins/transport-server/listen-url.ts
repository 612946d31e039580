/**
 * `--listen` URLs to listeners: `stdio`, `unix:PATH` (`unix:` alone: `<agent dir>/serve/serve.sock`,
 * a relative path from the working folder, `~` for home), `ws://HOST:PORT`. A new kind of
 * listener is one more case here and one more file.
 */
import { join, resolve } from "node:path";
import { expandHome, UsageError } from "../../kernel/index.js";
import type { Listener } from "./listener.js";
import { StdioListener } from "./listener-stdio.js";
import { UnixListener } from "./listener-unix.js";
import { WsListener, type WsListenerOptions } from "./listener-ws.js";
import { listenUrlMeant } from "./listen-syntax.js";

export { listenUrlMeant };

export interface ListenContext {
  agentDir: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  ws: WsListenerOptions;
}

export function defaultSocketPath(agentDir: string): string {
  return join(agentDir, "serve", "serve.sock");
}

export function listenerFor(url: string, context: ListenContext): Listener {
  if (url === "stdio") return new StdioListener();
  if (url.startsWith("unix:")) {
    const given = url.slice("unix:".length);
    if (given === "") return new UnixListener(defaultSocketPath(context.agentDir), true);
    return new UnixListener(resolve(context.cwd, expandHome(given, context.env)), false);
  }
  if (url.startsWith("ws://") || url.startsWith("wss://")) return new WsListener(url, context.ws);
  const meant = listenUrlMeant(url);
  throw new UsageError(`Invalid --listen "${url}": expected stdio, unix:PATH or ws://HOST:PORT${meant ? ` (did you mean --listen ${meant}?)` : ""}`);
}

/** One listener per URL; the same one twice is a mistake. */
export function listenersFor(urls: readonly string[], context: ListenContext): Listener[] {
  const listeners = urls.map((url) => listenerFor(url, context));
  if (context.ws.web && !listeners.some((listener) => listener instanceof WsListener))
    throw new UsageError("--web serves the page on a WebSocket listener: add --listen ws://127.0.0.1:0");
  const seen = new Set<string>();
  for (const listener of listeners) {
    if (seen.has(listener.url)) throw new UsageError(`--listen ${listener.url} is given twice`);
    seen.add(listener.url);
  }
  return listeners;
}
