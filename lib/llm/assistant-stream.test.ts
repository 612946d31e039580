import { describe, expect, it } from "vitest";
import { assistantEventBatches, batchedAssistantStream } from "./assistant-stream.js";
import type { AssistantMessage, AssistantMessageEvent } from "./types.js";

const partial = { role: "assistant", content: [] } as unknown as AssistantMessage;
const event = (delta: string): AssistantMessageEvent => ({ type: "text_delta", contentIndex: 0, delta, partial });

describe("assistant stream batches", () => {
  it("flattens the batches for a consumer that iterates events", async () => {
    const stream = batchedAssistantStream(async function* () {
      yield [event("a"), event("b")];
      yield new Set([event("c")]);
    });
    const deltas: string[] = [];
    for await (const item of stream) if (item.type === "text_delta") deltas.push(item.delta);
    expect(deltas).toEqual(["a", "b", "c"]);
  });

  it("hands out a stream's own batches, and one event per batch for a stream without them", async () => {
    const own = [[event("a"), event("b")], [event("c")]];
    const batched = batchedAssistantStream(async function* () {
      yield* own;
    });
    const seen: AssistantMessageEvent[][] = [];
    for await (const batch of assistantEventBatches(batched)) seen.push([...batch]);
    expect(seen).toEqual(own);

    const plain = (async function* () {
      yield event("x");
      yield event("y");
    })();
    const singles: AssistantMessageEvent[][] = [];
    for await (const batch of assistantEventBatches(plain)) singles.push([...batch]);
    expect(singles).toEqual([[event("x")], [event("y")]]);
  });
});
