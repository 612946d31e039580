/**
 * The server-sent events of a streaming HTTP response, for adapters that make the request with
 * their vendor's SDK (`.asResponse()`) and read the body here. The SDKs' own readers pass every
 * event through three async generators over a web stream, bytes re-joined and decoded per event:
 * on a 5,000-delta answer that was half the main thread's time (docs/performance.md). Here the
 * body is read as the Node stream it came as, one promise per network read, and parsed by
 * `eventsource-parser` (the WHATWG event-stream rules: CR/LF/CRLF, multi-line data, comments,
 * a leading BOM). As in the SDKs, an event the body ends in the middle of is dropped, and a
 * message without data is not delivered. Unlike them, an event that never ends (a broken
 * server) is not buffered without bound.
 */
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { FetchResponse } from "./fetch-response.js";

/** The most one event may hold before the stream is given up (a server that never ends a line). */
const MAX_EVENT_CHARS = 64 * 1024 * 1024;

export interface SseOptions {
  /** Characters one event (or a line) may hold; default 64 Mi. */
  maxEventChars?: number;
}

export interface SseMessage {
  /** The `event:` field; undefined for an unnamed event. */
  event?: string | undefined;
  data: string;
}

/**
 * The messages of `response`'s body, in order, in batches as they come off the network (one
 * promise per batch, not per message: a consumer loops over each batch itself). Throws what
 * reading the body throws (an abort's reason).
 */
export async function* sseBatches(response: Response, options: SseOptions = {}): AsyncGenerator<SseMessage[], void, undefined> {
  const maxEventChars = options.maxEventChars ?? MAX_EVENT_CHARS;
  let pending: SseMessage[] = [];
  let failure: Error | undefined;
  const parser = createParser({
    onEvent: (message: EventSourceMessage) => pending.push(message),
    maxBufferSize: maxEventChars,
    onError: (error) => {
      if (error.type === "max-buffer-size-exceeded") failure ??= new Error(`The server sent an event of more than ${maxEventChars} characters without ending it`);
    },
  });
  for await (const text of bodyText(response)) {
    parser.feed(text);
    if (pending.length > 0) {
      const ready = pending;
      pending = [];
      yield ready;
    }
    // What came before is still delivered.
    if (failure) throw failure;
  }
}

/** The body as UTF-8 text chunks (a character split across chunks is kept whole). */
async function* bodyText(response: Response): AsyncGenerator<string, void, undefined> {
  const source = response instanceof FetchResponse ? response.takeNodeBody() : undefined;
  if (source) {
    source.setEncoding("utf8");
    let first = true;
    for await (const text of source) {
      // The decoder of the web path drops a leading byte-order mark; Node's does not.
      yield first && (text as string).startsWith("\uFEFF") ? (text as string).slice(1) : (text as string);
      first = false;
    }
    return;
  }
  const body = response.body;
  if (!body) return;
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      const text = decoder.decode(read.value, { stream: true });
      if (text) yield text;
    }
    const rest = decoder.decode();
    if (rest) yield rest;
  } finally {
    // Stopping early (the consumer broke off, an error) cancels the body: the connection is not left half-read.
    reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
