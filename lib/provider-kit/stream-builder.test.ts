import { describe, expect, it } from "vitest";
import type { Model } from "../llm/index.js";
import { AssistantStreamBuilder, computeCost, parseToolArguments } from "./stream-builder.js";

const model: Model = {
  id: "m",
  name: "M",
  api: "test-api",
  provider: "p",
  baseUrl: "",
  reasoning: true,
  input: ["text"],
  cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  contextWindow: 1000,
  maxTokens: 100,
};

describe("computeCost", () => {
  it("prices each part per million tokens and sums them", () => {
    const cost = computeCost(model, {
      input: 1_000_000,
      output: 2_000,
      cacheRead: 10_000,
      cacheWrite: 4_000,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    });
    expect(cost.input).toBeCloseTo(3, 12);
    expect(cost.output).toBeCloseTo(0.03, 12);
    expect(cost.cacheRead).toBeCloseTo(0.003, 12);
    expect(cost.cacheWrite).toBeCloseTo(0.015, 12);
    expect(cost.total).toBeCloseTo(3.048, 12);
  });
});

describe("parseToolArguments", () => {
  it("parses complete, partial and broken JSON", () => {
    expect(parseToolArguments('{"a":1}')).toEqual({ a: 1 });
    expect(parseToolArguments('{"command":"ls -l')).toEqual({ command: "ls -l" });
    expect(parseToolArguments("")).toEqual({});
    expect(parseToolArguments("[1,2]")).toEqual({});
    expect(parseToolArguments("}{")).toEqual({});
  });
});

describe("AssistantStreamBuilder", () => {
  it("mutates one partial in place and describes each change with its event", () => {
    const b = new AssistantStreamBuilder(model);
    const events = [b.start(), b.thinkingStart("t"), b.thinkingDelta("t", "hm"), b.end("t"), b.textStart("x"), b.textDelta("x", "Hi"), b.textDelta("x", "!"), b.end("x")];
    expect(events.every((e) => e.partial === b.partial)).toBe(true);
    expect(events.map((e) => ("contentIndex" in e ? e.contentIndex : -1))).toEqual([-1, 0, 0, 0, 1, 1, 1, 1]);
    expect(events.at(-1)).toMatchObject({ type: "text_end", content: "Hi!" });
    expect(b.partial.content).toEqual([
      { type: "thinking", thinking: "hm" },
      { type: "text", text: "Hi!" },
    ]);
  });

  it("re-parses tool arguments on every fragment and takes the final JSON at the end", () => {
    const b = new AssistantStreamBuilder(model);
    b.toolCallStart(7, { id: "c1", name: "bash" });
    b.toolCallDelta(7, '{"comm');
    expect(b.partial.content[0]).toMatchObject({ arguments: {} });
    b.toolCallDelta(7, 'and":"l');
    expect(b.partial.content[0]).toMatchObject({ arguments: { command: "l" } });
    const end = b.end(7, '{"command":"ls"}');
    expect(end).toMatchObject({ type: "toolcall_end", toolCall: { id: "c1", name: "bash", arguments: { command: "ls" } } });
    expect(JSON.stringify(b.partial)).not.toContain('comm"');
  });

  it("appends signatures silently and closes open blocks in content order", () => {
    const b = new AssistantStreamBuilder(model);
    b.thinkingStart(0);
    b.setSignature(0, "ab", "append");
    b.setSignature(0, "cd", "append");
    b.textStart(1);
    expect([...b.endAll()].map((e) => e.type)).toEqual(["thinking_end", "text_end"]);
    expect(b.partial.content[0]).toMatchObject({ thinkingSignature: "abcd" });
  });

  it("keeps usage totals and cost current", () => {
    const b = new AssistantStreamBuilder(model);
    b.setUsage({ input: 100, cacheRead: 50 });
    b.setUsage({ output: 10 });
    expect(b.partial.usage).toMatchObject({ input: 100, output: 10, cacheRead: 50, cacheWrite: 0, totalTokens: 160 });
    expect(b.partial.usage.cost.total).toBeCloseTo((100 * 3 + 10 * 15 + 50 * 0.3) / 1e6, 12);
  });

  it("ends with done or error and marks itself finished", () => {
    const ok = new AssistantStreamBuilder(model);
    expect(ok.done("toolUse")).toMatchObject({ type: "done", reason: "toolUse", message: { stopReason: "toolUse" } });
    expect(ok.finished).toBe(true);
    const aborted = new AssistantStreamBuilder(model);
    expect(aborted.error("Request was aborted", true)).toMatchObject({ type: "error", reason: "aborted", error: { stopReason: "aborted", errorMessage: "Request was aborted" } });
  });
});
