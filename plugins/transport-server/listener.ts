/**
 * The listener seam: a listener (one file each: stdio, unix, and ws later) accepts clients and
 * hands each to the server as a `Wire`, a connection's byte stream with one interface whatever
 * carries it: records in, serialised records out with their outbound bytes counted, input
 * paused and resumed, closed with a reason.
 */

/** Who is at the other end, as far as the listener can tell. */
export interface PeerInfo {
  /** The listener's URL (`stdio`, `unix:/path`). */
  listener: string;
  /** The peer's user id, where the OS tells it. */
  uid?: number;
  /** A network peer's address. */
  address?: string;
}

/** Why the server closes a connection (a ws listener maps it to a close code). */
export type CloseReason = "slow_consumer" | "shutdown" | "too_many_connections" | "end";

export interface WireHandlers {
  /** One record's text (a line without its line feed, or a text frame). */
  record(text: string): void;
  /** A record too long to read was dropped. */
  oversized(bytes: number): void;
  /** The peer's input ended (EOF, a closed socket). */
  end(): void;
}

export type Part = string | Buffer;

export interface Wire {
  readonly peer: PeerInfo;
  /**
   * False for stdio, the process's own pipe: a client that falls behind is detached, not
   * closed (docs/server.md, Slow clients). True for sockets.
   */
  readonly closable: boolean;
  /** Starts delivering input. */
  start(handlers: WireHandlers): void;
  /** Queues one serialised record (its pieces, without the line feed); `bytes` is its UTF-8 size. */
  send(parts: readonly Part[], bytes: number): void;
  /** Bytes queued by `send` and not yet handed to the operating system. */
  outboundBytes(): number;
  /** Calls back once everything sent so far has been handed to the operating system (or the wire is gone). */
  onceFlushed(callback: () => void): void;
  pauseInput(): void;
  resumeInput(): void;
  /** Flushes what was sent (unless the peer is gone) and closes; resolves when closed. */
  close(reason: CloseReason): Promise<void>;
}

/** What a listener that can refuse a connection before accepting it (a ws upgrade) asks the server. */
export interface Admission {
  /** Why a new connection would be refused now, or undefined when it would be accepted. */
  refusal(): "shutting_down" | "full" | undefined;
}

export interface Listener {
  /** The URL it serves, as `server_info` lists it. */
  readonly url: string;
  /** Starts accepting; each new connection goes to `accept`. Rejects with a clear error when it cannot listen. */
  start(accept: (wire: Wire) => void, admission?: Admission): Promise<void>;
  /** Stops accepting and removes what it created (a socket file); open wires are the server's to close. */
  close(): Promise<void>;
}

export function byteLength(parts: readonly Part[]): number {
  let bytes = 0;
  for (const part of parts) bytes += typeof part === "string" ? Buffer.byteLength(part) : part.length;
  return bytes;
}
