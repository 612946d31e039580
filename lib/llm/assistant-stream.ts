/**
 * The provider stream contract's batch view. A streamed answer is thousands of small events
 * that arrive in a few dozen network reads; relayed one `await` per event through the
 * provider frame, the adapter and the agent loop, the async steps (and V8 optimising the large
 * async functions that take them) cost more than the events. A stream may therefore also hand
 * its events over per read: `eventBatches()` yields synchronous iterables that the consumer
 * walks without awaiting. They are lazy on purpose: an adapter mutates one partial message as
 * it maps each event, so it must not run ahead of the consumer, which serialises that partial
 * with every event (the snapshot must match the event).
 */
import type { AssistantMessageEvent } from "./types.js";

/** A provider's answer to one request: its events, ending with exactly one `done` or `error`. */
export interface AssistantStream extends AsyncIterable<AssistantMessageEvent> {
  /**
   * Optional: the same events in batches. Each batch is walked synchronously, to its end or
   * until the consumer stops; a consumer uses either this or the per-event iteration, once.
   */
  eventBatches?(): AsyncIterable<Iterable<AssistantMessageEvent>>;
}

/** A stream whose events come from `batches`: both views, for providers that read in batches. */
export function batchedAssistantStream(batches: () => AsyncIterable<Iterable<AssistantMessageEvent>>): AssistantStream {
  return {
    eventBatches: batches,
    async *[Symbol.asyncIterator]() {
      for await (const batch of batches()) yield* batch;
    },
  };
}

/** The batches of any stream: its own, or one event per batch for a stream without them. */
export function assistantEventBatches(stream: AssistantStream): AsyncIterable<Iterable<AssistantMessageEvent>> {
  return stream.eventBatches ? stream.eventBatches() : singleEventBatches(stream);
}

async function* singleEventBatches(stream: AsyncIterable<AssistantMessageEvent>): AsyncGenerator<AssistantMessageEvent[], void, undefined> {
  for await (const event of stream) yield [event];
}
