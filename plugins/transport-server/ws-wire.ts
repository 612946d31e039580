/**
 * A `Wire` over one WebSocket: one JSON record per text frame each way. A binary frame closes
 * the connection with 1003; the listener's keepalive pings it and drops a peer that stops
 * answering. The frames of one event-loop turn leave in one write (the upgraded socket is corked
 * for the turn): a stream of small events costs a system call per turn, not per event.
 * Outbound bytes are what the socket has not handed to the OS, the number the server's
 * slow-consumer policy compares with `outboundBytes`.
 */
import type { Duplex } from "node:stream";
import { WebSocket } from "ws";
import type { CloseReason, Part, PeerInfo, Wire, WireHandlers } from "./listener.js";

/** How long a closing WebSocket may take to flush and hear the peer's close frame. */
const CLOSE_GRACE_MS = 5_000;

const CLOSE_CODES: Record<CloseReason, { code: number; text: string }> = {
  slow_consumer: { code: 1013, text: "slow consumer: the outbound buffer is full" },
  too_many_connections: { code: 1013, text: "too many connections: try again later" },
  shutdown: { code: 1001, text: "server shutting down" },
  end: { code: 1000, text: "" },
};

export class WsWire implements Wire {
  readonly peer: PeerInfo;
  readonly closable = true;
  /** Heard from since the last keepalive ping. */
  alive = true;
  readonly #socket: WebSocket;
  readonly #raw: Duplex;
  #corked = false;
  #gone = false;
  #closing: Promise<void> | undefined;
  #handlers: WireHandlers | undefined;
  readonly #left: () => void;

  /** `left` is called once when the connection is gone, whoever closed it. */
  constructor(peer: PeerInfo, socket: WebSocket, raw: Duplex, left: () => void) {
    this.peer = peer;
    this.#socket = socket;
    this.#raw = raw;
    this.#left = left;
    socket.on("pong", () => (this.alive = true));
    // Errors (a reset, a protocol violation) end in "close"; ws already answered the peer.
    socket.on("error", () => undefined);
    socket.once("close", () => this.#lost());
  }

  start(handlers: WireHandlers): void {
    this.#handlers = handlers;
    this.#socket.on("message", (data: Buffer, isBinary: boolean) => {
      this.alive = true;
      if (isBinary) return void this.#socket.close(1003, "binary frames are not accepted: send one JSON record per text frame");
      handlers.record(data.toString("utf8"));
    });
    if (this.#gone) handlers.end();
  }

  #lost(): void {
    if (this.#gone) return;
    this.#gone = true;
    this.#left();
    this.#handlers?.end();
  }

  send(parts: readonly Part[], bytes: number): void {
    if (this.#gone || this.#closing || this.#socket.readyState !== WebSocket.OPEN) return;
    this.#cork();
    this.#socket.send(frameOf(parts, bytes), { binary: false });
  }

  /** Held until the end of this turn, then everything sent in it goes out in one write. */
  #cork(): void {
    if (this.#corked) return;
    this.#corked = true;
    this.#raw.cork();
    setImmediate(() => this.#uncork());
  }

  #uncork(): void {
    if (!this.#corked) return;
    this.#corked = false;
    this.#raw.uncork();
  }

  outboundBytes(): number {
    return this.#socket.bufferedAmount;
  }

  onceFlushed(callback: () => void): void {
    this.#uncork();
    if (this.#gone || this.#raw.destroyed) return callback();
    // An empty write's callback runs once everything before it was handed to the OS.
    this.#raw.write("", () => callback());
  }

  pauseInput(): void {
    this.#socket.pause();
  }

  resumeInput(): void {
    if (!this.#closing) this.#socket.resume();
  }

  ping(): void {
    if (this.#socket.readyState === WebSocket.OPEN) this.#socket.ping();
  }

  /** Dropped without a close handshake (a peer that stopped answering pings). */
  terminate(): void {
    this.#socket.terminate();
  }

  close(reason: CloseReason): Promise<void> {
    if (!this.#closing) {
      this.#closing = new Promise<void>((resolve) => {
        if (this.#gone) return resolve();
        this.#socket.once("close", () => resolve());
        this.#uncork();
        const { code, text } = CLOSE_CODES[reason];
        this.#socket.close(code, text);
        setTimeout(() => this.#socket.terminate(), CLOSE_GRACE_MS).unref();
      });
    }
    return this.#closing;
  }
}

/** One frame's payload: the string itself, or the pieces joined into one buffer. */
function frameOf(parts: readonly Part[], bytes: number): string | Buffer {
  if (parts.length === 1) return parts[0]!;
  if (parts.every((part) => typeof part === "string")) return parts.join("");
  return Buffer.concat(
    parts.map((part) => (typeof part === "string" ? Buffer.from(part) : part)),
    bytes,
  );
}
