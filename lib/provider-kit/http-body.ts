/**
 * A provider response body as undici's fetch gives it (decompressed per `content-encoding`,
 * raw deflate included), bounded: a few megabytes of gzip inflate to gigabytes, and a reader
 * that buffers what it is given (an SDK reading an error body, an SSE parser waiting for the
 * end of an event) would hold all of it. An error body is cut at `ERROR_BODY_MAX_BYTES` (its
 * message is in the first lines); a compressed success body fails once it inflates past
 * `EVENT_MAX_BYTES` without a blank line (the end of a server-sent event), so a stream of any
 * length passes but one event cannot grow without bound. A body that does not decompress is
 * an error naming the host, worded as retryable (undici's "terminated"): a corrupt body is
 * usually a connection cut short.
 */
import type { IncomingMessage } from "node:http";
import { PassThrough, Transform, type Readable, type TransformCallback } from "node:stream";

/** Enough for any provider's error message; the rest of a larger body is not read. */
export const ERROR_BODY_MAX_BYTES = 1024 * 1024;
/** The most a compressed success body may inflate to between two events (sse.ts caps an event at 64 Mi characters too). */
export const EVENT_MAX_BYTES = 64 * 1024 * 1024;

export interface BodyLimits {
  errorBodyMaxBytes?: number;
  eventMaxBytes?: number;
}

/** The body of `message` to hand on: decoded, and bounded as above. */
export async function boundedBody(message: IncomingMessage, url: URL, status: number, limits: BodyLimits = {}): Promise<Readable> {
  const encoding = message.headers["content-encoding"]?.trim().toLowerCase();
  const compressed = encoding !== undefined && encoding !== "" && encoding !== "identity";
  // Loaded only for a compressed body (most streaming APIs send none).
  const decoding = compressed ? await decoderFor(message, encoding) : undefined;
  // Aborted (or timed out) while the decoder was chosen: the reader gets that failure.
  if (message.errored) return failedBody(message.errored);
  const decoder = decoding?.decoder;
  let last: Transform;
  const stopReading = () => {
    // The rest is never read: the connection goes (and what the decoder holds) rather than inflating gigabytes into nowhere.
    (decoder ?? message).unpipe(last);
    decoder?.destroy();
    message.destroy();
  };
  if (status >= 400) last = new ErrorBodyCap(limits.errorBodyMaxBytes ?? ERROR_BODY_MAX_BYTES, stopReading);
  else if (decoder) last = new EventCap(limits.eventMaxBytes ?? EVENT_MAX_BYTES, encoding!, url);
  // An uncompressed success body is the response itself (the streaming hot path: no extra hop).
  else return message;
  // What reads `last` sees every failure: the response's own (an abort's reason, the idle
  // timeout) as is, the decoder's as a decompression error.
  message.once("error", (error) => {
    decoder?.destroy();
    last.destroy(error);
  });
  // A reader that stops early (a cancelled body) releases the connection.
  last.once("close", () => message.destroy());
  if (!decoder) return message.pipe(last);
  decoder.once("error", (error) => {
    message.destroy();
    last.destroy(decodeError(error, encoding!, url));
  });
  return (decoding.first ? prepend(decoding.first, message) : message).pipe(decoder).pipe(last);
}

function failedBody(error: Error): Readable {
  const body = new PassThrough();
  body.destroy(error);
  return body;
}

/** `rest` with `first` (bytes already read off it) in front again. */
function prepend(first: Buffer, rest: Readable): Readable {
  const joined = new PassThrough();
  joined.write(first);
  return rest.pipe(joined);
}

interface Decoding {
  decoder: Transform;
  /** Bytes already read off the response to choose the decoder: they go in first. */
  first?: Buffer;
}

async function decoderFor(message: IncomingMessage, encoding: string): Promise<Decoding | undefined> {
  const zlib = await import("node:zlib");
  const flush = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  if (encoding === "gzip" || encoding === "x-gzip") return { decoder: zlib.createGunzip(flush) };
  if (encoding === "br") return { decoder: zlib.createBrotliDecompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH, finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH }) };
  if (encoding !== "deflate") return undefined;
  // "deflate" means zlib-wrapped data, but some servers send it raw: the first byte tells
  // (a zlib header's low nibble is 8, the deflate method), as undici decides.
  const first = await firstChunk(message);
  const raw = first !== undefined && (first[0]! & 0x0f) !== 0x08;
  return { decoder: raw ? zlib.createInflateRaw(flush) : zlib.createInflate(flush), ...(first ? { first } : {}) };
}

/** The first bytes of `message` (taken off it), or undefined when it ends first. */
function firstChunk(message: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const done = (chunk: Buffer | undefined) => {
      message.off("readable", onReadable);
      message.off("end", onEnd);
      message.off("close", onEnd);
      message.off("error", onEnd);
      resolve(chunk);
    };
    const onReadable = () => {
      const chunk = message.read() as Buffer | null;
      if (chunk !== null) done(chunk);
    };
    const onEnd = () => done(undefined);
    message.on("readable", onReadable);
    message.once("end", onEnd);
    message.once("close", onEnd);
    // An abort while waiting: handled here, and seen by the caller as a destroyed response.
    message.once("error", onEnd);
  });
}

function decodeError(error: Error, encoding: string, url: URL): Error {
  const code = (error as NodeJS.ErrnoException).code;
  return new TypeError(`Cannot decompress the ${encoding} body from ${url.host}: ${error.message}${code && !error.message.includes(code) ? ` (${code})` : ""}`, { cause: error });
}

/** Passes the first `max` bytes, then ends the body and stops reading the response. */
class ErrorBodyCap extends Transform {
  #left: number;
  #stopped = false;
  readonly #stop: () => void;

  constructor(max: number, stop: () => void) {
    super();
    this.#left = max;
    this.#stop = stop;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.#stopped) return done();
    if (chunk.length < this.#left) {
      this.#left -= chunk.length;
      return done(null, chunk);
    }
    this.push(chunk.subarray(0, this.#left));
    this.#stopped = true;
    this.push(null);
    this.#stop();
    done();
    // Both sides end, so whatever waits for the stream to finish (a web stream made of it) does.
    this.end();
  }
}

/** Fails once `max` bytes pass without a blank line (LF LF or LF CR LF). */
class EventCap extends Transform {
  readonly #max: number;
  readonly #label: string;
  #sinceBoundary = 0;
  /** The last two bytes seen: a boundary may straddle two chunks. */
  #tail = Buffer.alloc(0);

  constructor(max: number, encoding: string, url: URL) {
    super();
    this.#max = max;
    this.#label = `The ${encoding} body from ${url.host}`;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const edge = Buffer.concat([this.#tail, chunk.subarray(0, 2)]);
    const inChunk = Math.max(lastBoundary(chunk), lastBoundary(edge) >= 0 ? 0 : -1);
    this.#sinceBoundary = inChunk >= 0 ? chunk.length - inChunk : this.#sinceBoundary + chunk.length;
    this.#tail = Buffer.from(chunk.subarray(Math.max(0, chunk.length - 2)));
    if (this.#sinceBoundary > this.#max) {
      return done(new Error(`${this.#label} inflated to over ${this.#max / (1024 * 1024)} MiB without ending an event; the stream was stopped`));
    }
    done(null, chunk);
  }
}

/** Where the last blank line in `bytes` ends (an index into it), or -1. */
function lastBoundary(bytes: Buffer): number {
  const lf = bytes.lastIndexOf("\n\n");
  const crlf = bytes.lastIndexOf("\n\r\n");
  return Math.max(lf < 0 ? -1 : lf + 2, crlf < 0 ? -1 : crlf + 3);
}
