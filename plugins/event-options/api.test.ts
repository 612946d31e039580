import { describe, expect, it } from "vitest";
import { DEFAULT_EVENT_OPTIONS, deltaUpdate, startingEventOptions, streamedDeltaJson } from "./api.js";

const partial = { role: "assistant", content: [{ type: "text", text: "so far" }] };

describe("streamedDeltaJson", () => {
  it("writes exactly what JSON.stringify(deltaUpdate(event)) writes for the delta events", () => {
    const deltas = [
      { type: "text_delta", contentIndex: 0, delta: "plain ", partial },
      { type: "thinking_delta", contentIndex: 3, delta: 'quotes " and \\ and \n and \u2028 and \u0001', partial },
      { type: "toolcall_delta", contentIndex: 12, delta: '{"path":"ü/日本"', partial },
      { type: "text_delta", contentIndex: 0, delta: "\ud800 lone surrogate", partial },
    ];
    for (const inner of deltas) {
      const event = { type: "message_update", message: partial, assistantMessageEvent: inner };
      expect(streamedDeltaJson(event)).toBe(JSON.stringify(deltaUpdate(event)));
      const withUsage = {
        ...event,
        usage: { input: 3, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 4, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
      };
      expect(streamedDeltaJson(withUsage)).toBe(JSON.stringify(deltaUpdate(withUsage)));
      expect(JSON.parse(streamedDeltaJson(withUsage)!)).toEqual({
        type: "message_update",
        usage: withUsage.usage,
        assistantMessageEvent: { type: inner.type, contentIndex: inner.contentIndex, delta: inner.delta },
      });
    }
  });

  it("leaves every other shape to the general serialiser", () => {
    const others = [
      { type: "text_start", contentIndex: 0, partial },
      { type: "text_end", contentIndex: 0, content: "x", partial },
      { type: "text_delta", delta: "keys in another order", contentIndex: 0, partial },
      { type: "text_delta", contentIndex: 0, delta: "an extra key", partial, extra: 1 },
      { type: "text_delta", contentIndex: 0.5, delta: "not an index", partial },
      { type: "text_delta", contentIndex: 0, delta: 42, partial },
      { type: "text_delta", contentIndex: 0, delta: "no partial" },
    ];
    for (const inner of others) expect(streamedDeltaJson({ assistantMessageEvent: inner })).toBeUndefined();
  });
});

describe("deltaUpdate", () => {
  it("names a toolcall_start's call from the snapshot it drops (pi 1.6's form), and leaves other starts alone", () => {
    const snapshot = {
      role: "assistant",
      content: [
        { type: "text", text: "so far" },
        { type: "toolCall", id: "call_7", name: "read", arguments: {} },
      ],
    };
    const start = (contentIndex: number) => ({ type: "message_update", message: snapshot, assistantMessageEvent: { type: "toolcall_start", contentIndex, partial: snapshot } });
    expect(deltaUpdate(start(1))).toEqual({ type: "message_update", assistantMessageEvent: { type: "toolcall_start", contentIndex: 1, id: "call_7", toolName: "read" } });
    expect(deltaUpdate(start(0))).toEqual({ type: "message_update", assistantMessageEvent: { type: "toolcall_start", contentIndex: 0 } });
    expect(deltaUpdate({ assistantMessageEvent: { type: "toolcall_start", contentIndex: 0 } })).toEqual({
      type: "message_update",
      assistantMessageEvent: { type: "toolcall_start", contentIndex: 0 },
    });
    const text = { type: "message_update", message: snapshot, assistantMessageEvent: { type: "text_start", contentIndex: 0, partial: snapshot } };
    expect(deltaUpdate(text)).toEqual({ type: "message_update", assistantMessageEvent: { type: "text_start", contentIndex: 0 } });
  });
});

describe("startingEventOptions", () => {
  it("the defaults, with the eventOptions setting over them field by field", () => {
    expect(startingEventOptions({})).toEqual(DEFAULT_EVENT_OPTIONS);
    expect(startingEventOptions({ eventOptions: { messageUpdates: "delta" } })).toEqual({ messageUpdates: "delta", agentSettled: true });
    expect(startingEventOptions({ eventOptions: { agentSettled: false } })).toEqual({ messageUpdates: "full", agentSettled: false });
  });
});
