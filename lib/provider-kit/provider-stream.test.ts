import { describe, expect, it } from "vitest";
import { assistantEventBatches, type AssistantMessageEvent, type AssistantStream, type Model, type StreamRequest } from "../llm/index.js";
import { providerStream, type ProviderBody } from "./provider-stream.js";
import type { ProviderModelsApi } from "./types.js";

const model: Model = {
  id: "m",
  name: "M",
  api: "test-api",
  provider: "p",
  baseUrl: "http://127.0.0.1:9",
  reasoning: false,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 1000,
  maxTokens: 100,
};

const models = {
  registerProvider: () => {},
  apiKey: async () => "key",
  headers: async () => ({}),
} satisfies ProviderModelsApi;

function request(signal = new AbortController().signal): StreamRequest {
  return { model, context: { systemPrompt: "", messages: [], tools: [] }, options: { signal, thinkingLevel: "off", callIndex: 1 } };
}

/** What a consumer sees when it walks the batches: each event with the text the partial held at that moment. */
async function walk(stream: AssistantStream): Promise<{ type: string; text: string; batch: number }[]> {
  const seen: { type: string; text: string; batch: number }[] = [];
  let batchIndex = 0;
  for await (const batch of assistantEventBatches(stream)) {
    for (const event of batch) {
      const block = event.partial.content[0];
      seen.push({ type: event.type, text: block?.type === "text" ? block.text : "", batch: batchIndex });
    }
    batchIndex++;
  }
  return seen;
}

describe("providerStream batches", () => {
  it("relays a lazy batch in lockstep: each event sees the partial as it was when that event was made", async () => {
    const body: ProviderBody = async function* ({ builder: b }) {
      yield b.start();
      yield (function* () {
        yield b.textStart(0);
        for (const word of ["a", "b", "c"]) yield b.textDelta(0, word);
      })();
      yield [b.end(0)];
      yield b.done("stop");
    };
    const seen = await walk(providerStream(models, request(), body));
    expect(seen).toEqual([
      { type: "start", text: "", batch: 0 },
      { type: "text_start", text: "", batch: 1 },
      { type: "text_delta", text: "a", batch: 1 },
      { type: "text_delta", text: "ab", batch: 1 },
      { type: "text_delta", text: "abc", batch: 1 },
      { type: "text_end", text: "abc", batch: 2 },
      { type: "done", text: "abc", batch: 3 },
    ]);
  });

  it("gives the per-event view of the same stream", async () => {
    const body: ProviderBody = async function* ({ builder: b }) {
      yield b.start();
      yield [b.textStart(0), b.textDelta(0, "x")];
      yield (function* () {
        yield b.end(0);
        yield b.done("stop");
      })();
    };
    const types: string[] = [];
    for await (const event of providerStream(models, request(), body)) types.push(event.type);
    expect(types).toEqual(["start", "text_start", "text_delta", "text_end", "done"]);
  });

  it("turns a failure while a batch is mapped into the final error, after what came before it", async () => {
    const body: ProviderBody = async function* ({ builder: b }) {
      yield b.start();
      yield (function* () {
        yield b.textStart(0);
        yield b.textDelta(0, "partial");
        throw new Error("the server sent nonsense");
      })();
      yield b.done("stop");
    };
    const events: AssistantMessageEvent[] = [];
    for await (const batch of assistantEventBatches(providerStream(models, request(), body))) events.push(...batch);
    expect(events.map((event) => event.type)).toEqual(["start", "text_start", "text_delta", "error"]);
    const last = events.at(-1)!;
    expect(last.type === "error" && last.error).toMatchObject({ stopReason: "error", errorMessage: expect.stringContaining("the server sent nonsense") });
    expect(last.partial.content).toEqual([{ type: "text", text: "partial" }]);
  });

  it("delivers nothing after the final event of a batch and does not ask the body for more", async () => {
    let askedForMore = false;
    const body: ProviderBody = async function* ({ builder: b }) {
      yield (function* () {
        yield b.start();
        yield b.done("stop");
        yield b.textStart(0);
      })();
      askedForMore = true;
      yield b.textStart(1);
    };
    const types: string[] = [];
    for await (const batch of assistantEventBatches(providerStream(models, request(), body))) for (const event of batch) types.push(event.type);
    expect(types).toEqual(["start", "done"]);
    expect(askedForMore).toBe(false);
  });

  it("ends a body that runs out of events without a final one with an error", async () => {
    const body: ProviderBody = async function* ({ builder: b }) {
      yield [b.start(), b.textStart(0)];
    };
    const seen = await walk(providerStream(models, request(), body));
    expect(seen.map((event) => event.type)).toEqual(["start", "text_start", "error"]);
  });

  it("cancels the request when the consumer stops in the middle of a batch", async () => {
    let signal: AbortSignal | undefined;
    const body: ProviderBody = async function* (call) {
      signal = call.signal;
      const b = call.builder;
      yield [b.start(), b.textStart(0), b.textDelta(0, "a"), b.textDelta(0, "b")];
    };
    for await (const batch of assistantEventBatches(providerStream(models, request(), body))) {
      for (const event of batch) if (event.type === "text_delta") break;
      break;
    }
    expect(signal?.aborted).toBe(true);
  });
});
