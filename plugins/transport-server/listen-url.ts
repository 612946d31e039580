/**
 * `--listen` URLs to listeners: `stdio`, `unix:PATH` (`unix:` alone: `<agent dir>/serve/serve.sock`,
 * a relative path from the working folder, `~` for home). A new kind of listener is one more
 * case here and one more file.
 */
import { join, resolve } from "node:path";
import { expandHome, UsageError } from "../../kernel/index.js";
import type { Listener } from "./listener.js";
import { StdioListener } from "./listener-stdio.js";
import { UnixListener } from "./listener-unix.js";

export interface ListenContext {
  agentDir: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
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
  if (url.startsWith("ws://") || url.startsWith("wss://"))
    throw new UsageError(`Cannot listen on ${url}: WebSocket listeners are not available in this version; use stdio or unix:PATH`);
  throw new UsageError(`Invalid --listen "${url}": expected stdio or unix:PATH`);
}

/** One listener per URL; the same one twice is a mistake. */
export function listenersFor(urls: readonly string[], context: ListenContext): Listener[] {
  const listeners = urls.map((url) => listenerFor(url, context));
  const seen = new Set<string>();
  for (const listener of listeners) {
    if (seen.has(listener.url)) throw new UsageError(`--listen ${listener.url} is given twice`);
    seen.add(listener.url);
  }
  return listeners;
}
