import { describe, expect, it } from "vitest";
import { sseBatches } from "./sse.js";
import { isEventStream, observeEvents } from "./sse-observer.js";

function streamed(chunks: string[]): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
}

describe("observeEvents", () => {
  it("hands each event's parsed data to the observer, in order and before the reader gets it, and leaves the body intact", async () => {
    const order: string[] = [];
    const response = observeEvents(streamed(['data: {"n":1}\n\nda', 'ta: {"n":2}\n\ndata: [DONE]\n\n']), async (data) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push(`observed ${JSON.stringify(data)}`);
    });
    expect(isEventStream(response)).toBe(true);
    for await (const batch of sseBatches(response)) for (const message of batch) order.push(`read ${message.data}`);
    expect(order).toEqual(['observed {"n":1}', 'read {"n":1}', 'observed {"n":2}', 'observed "[DONE]"', 'read {"n":2}', "read [DONE]"]);
  });

  it("only streaming answers are observed", () => {
    expect(isEventStream(new Response("{}", { status: 200, headers: { "content-type": "application/json" } }))).toBe(false);
    expect(isEventStream(new Response("x", { status: 500, headers: { "content-type": "text/event-stream" } }))).toBe(false);
  });
});
