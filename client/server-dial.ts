/**
 * How the server client (server.ts) reaches `atomic serve`: the socket a `unix:` URL names, and
 * one connection up to the server's greeting, which tells a server from a refusal or nobody
 * there. What the connection is then used for, and what happens when it drops, is server.ts's.
 */
import { homedir } from "node:os";
import { connect, type Socket } from "node:net";
import { join, resolve } from "node:path";
import { LineReader } from "../lib/jsonl/index.js";
import type { Record_ } from "./connection.js";

/** What one dialed socket tells the client, from the first line on. */
export interface DialEvents {
  /** A line arrived (before it is parsed): the connection is alive. */
  line(socket: Socket): void;
  /** The server's `server_hello`; called before any record after it. */
  greeted(socket: Socket, hello: Record_): void;
  /** A record after the greeting. */
  record(record: Record_): void;
  /** The greeted socket closed. */
  closed(socket: Socket): void;
}

/** One connection: resolves once the server greeted it, rejects when it refused or nobody answered. */
export function dialServer(path: string, on: DialEvents): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    let greeted = false;
    const reader = new LineReader((line) => {
      on.line(socket);
      let record: Record_;
      try {
        record = JSON.parse(line) as Record_;
      } catch {
        return;
      }
      if (greeted) return on.record(record);
      greeted = true;
      if (record.type !== "server_hello") {
        socket.destroy();
        return reject(new Error(`atomic serve at ${path} refused the connection: ${String(record.error ?? line)}`));
      }
      on.greeted(socket, record);
      resolve();
    });
    socket.on("data", (chunk: Buffer) => reader.push(chunk));
    socket.once("error", (error) => {
      if (!greeted) reject(new Error(`Cannot connect to atomic serve at ${path}: ${error.message}`));
    });
    socket.once("close", () => {
      if (!greeted) reject(new Error(`atomic serve at ${path} closed the connection`));
      else on.closed(socket);
    });
  });
}

/** `unix:PATH` (relative to the working folder, `~` for home) or `unix:` for `<agent dir>/serve/serve.sock`. */
export function socketPath(url: string, agentDir: string | undefined): string {
  if (!url.startsWith("unix:")) throw new Error(`Cannot connect to ${url}: expected unix:PATH`);
  const given = url.slice("unix:".length);
  const home = (path: string) => (path === "~" || path.startsWith("~/") ? join(homedir(), path.slice(1)) : path);
  if (given) return resolve(home(given));
  const fromEnv = process.env.ATOMIC_CODING_AGENT_DIR;
  return join(agentDir ?? (fromEnv ? resolve(home(fromEnv)) : join(homedir(), ".atomic", "agent")), "serve", "serve.sock");
}
