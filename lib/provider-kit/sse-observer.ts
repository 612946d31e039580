/**
 * pi's `provider_stream_event`: every server-sent event of a provider's streaming response, as
 * the structured value it carries (its `data` parsed as JSON, else the text), handed to an
 * observer before the adapter reads it. The observer is awaited event by event, so the events
 * arrive in stream order and a slow observer slows the stream down (as in pi) rather than
 * letting events pile up. Used only while someone observes: otherwise the response is untouched.
 */
import { Readable } from "node:stream";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { FetchHeaders } from "./fetch-headers.js";
import { FetchResponse } from "./fetch-response.js";

export type SseObserver = (data: unknown) => Promise<void>;

export function isEventStream(response: Response): boolean {
  return response.status < 400 && response.body !== null && (response.headers.get("content-type") ?? "").toLowerCase().includes("text/event-stream");
}

/** The same response, its body passing through `observe` event by event. */
export function observeEvents(response: Response, observe: SseObserver): Response {
  return new FetchResponse(Readable.from(observedChunks(response, observe), { objectMode: false }), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers instanceof FetchHeaders ? response.headers : new FetchHeaders(response.headers),
    url: response.url,
  });
}

async function* observedChunks(response: Response, observe: SseObserver): AsyncGenerator<Buffer, void, undefined> {
  let ready: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => ready.push(message) });
  const decoder = new TextDecoder();
  for await (const chunk of bodyChunks(response)) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    const events = ready;
    ready = [];
    for (const event of events) await observe(parsed(event.data));
    yield Buffer.from(chunk);
  }
}

function parsed(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
  }
}

async function* bodyChunks(response: Response): AsyncGenerator<Uint8Array, void, undefined> {
  const source = response instanceof FetchResponse ? response.takeNodeBody() : undefined;
  if (source) {
    for await (const chunk of source) yield typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Uint8Array);
    return;
  }
  const reader = response.body!.getReader();
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) yield read.value;
  } finally {
    reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
