/**
 * A `Wire` over a byte stream (stdio, a unix socket): LF-delimited JSON lines in, read with the
 * shared strict reader, and records out, joined per event-loop turn into few writes. Outbound
 * bytes are what waits in this wire plus what the stream still buffers: the number the server's
 * slow-consumer policy compares with `outboundBytes`.
 */
import { LineReader } from "../../lib/jsonl/index.js";
import type { CloseReason, Part, PeerInfo, Wire, WireHandlers } from "./listener.js";

export interface StreamSides {
  input: NodeJS.ReadableStream;
  /** Hands pieces to the output stream. */
  write(parts: Part[]): void;
  /** Bytes the output stream holds that the OS has not taken yet. */
  buffered(): number;
  /** Calls back once everything written so far has been handed to the OS. */
  flushed(callback: () => void): void;
  /** Ends the output (after what was written) and the input; resolves once closed. */
  end(): Promise<void>;
}

/** Text is joined into one string per this many characters: a writev of hundreds of tiny strings costs more than the join. */
const JOIN_CHARS = 64 * 1024;

export class StreamWire implements Wire {
  readonly peer: PeerInfo;
  readonly closable: boolean;
  readonly #sides: StreamSides;
  #pending: Part[] = [];
  #pendingBytes = 0;
  #scheduled = false;
  /** The peer is gone: nothing more can be written. */
  #gone = false;
  #inputEnded = false;
  #closing: Promise<void> | undefined;
  #handlers: WireHandlers | undefined;

  constructor(peer: PeerInfo, closable: boolean, sides: StreamSides) {
    this.peer = peer;
    this.closable = closable;
    this.#sides = sides;
  }

  start(handlers: WireHandlers): void {
    this.#handlers = handlers;
    const reader = new LineReader((line) => handlers.record(line), { onOversized: (bytes) => handlers.oversized(bytes) });
    this.#sides.input.on("data", (chunk: Buffer) => reader.push(chunk));
    this.#sides.input.once("end", () => {
      reader.end();
      this.#inputEnd();
    });
  }

  /** The peer went away (a reset socket, a closed pipe): nothing more is written. */
  lost(): void {
    this.#gone = true;
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#inputEnd();
  }

  #inputEnd(): void {
    if (this.#inputEnded) return;
    this.#inputEnded = true;
    this.#handlers?.end();
  }

  send(parts: readonly Part[], bytes: number): void {
    if (this.#gone || this.#closing) return;
    for (const part of parts) this.#pending.push(part);
    this.#pending.push("\n");
    this.#pendingBytes += bytes + 1;
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.#flush());
    }
  }

  #flush(): void {
    this.#scheduled = false;
    if (this.#pending.length === 0) return;
    const parts = joinText(this.#pending);
    this.#pending = [];
    this.#pendingBytes = 0;
    if (!this.#gone) this.#sides.write(parts);
  }

  outboundBytes(): number {
    return this.#pendingBytes + this.#sides.buffered();
  }

  onceFlushed(callback: () => void): void {
    this.#flush();
    if (this.#gone) return callback();
    this.#sides.flushed(callback);
  }

  pauseInput(): void {
    this.#sides.input.pause();
  }

  resumeInput(): void {
    if (!this.#closing) this.#sides.input.resume();
  }

  close(_reason: CloseReason): Promise<void> {
    if (!this.#closing) {
      this.#sides.input.pause();
      this.#flush();
      this.#closing = this.#sides.end();
    }
    return this.#closing;
  }
}

/** Adjacent strings joined (up to JOIN_CHARS each); buffers kept as they are. */
function joinText(parts: Part[]): Part[] {
  const out: Part[] = [];
  let text = "";
  for (const part of parts) {
    if (typeof part === "string" && text.length + part.length <= JOIN_CHARS) text += part;
    else {
      if (text) out.push(text);
      text = "";
      if (typeof part === "string") text = part;
      else out.push(part);
    }
  }
  if (text) out.push(text);
  return out;
}
