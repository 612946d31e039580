import { describe, expect, it } from "vitest";
import { snapshotJson } from "./snapshot-cache.js";
import { serialize } from "./record-writer.js";

function message() {
  return {
    role: "assistant",
    content: [] as Record<string, unknown>[],
    api: "x",
    provider: "p",
    model: "m",
    usage: { input: 1, output: 2 },
    stopReason: "stop",
    timestamp: 1,
  };
}

const PIECES = ["Hello", ' "quoted"', "\n", "tab\t", "\u2028", "é", "\\", "😀", "\ud83d", "\ude00", "<script>", ""];

describe("snapshot cache", () => {
  it("always equals JSON.stringify while blocks stream (incl. split surrogate pairs)", () => {
    const m = message();
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    m.content.push({ type: "thinking", thinking: "" });
    for (let i = 0; i < 400; i++) {
      const roll = next() % 10;
      if (roll === 0) m.content.push({ type: "text", text: "" });
      else if (roll === 1) m.content.push({ type: "toolCall", id: `c${i}`, name: "bash", arguments: { command: "ls" } });
      else {
        const block = m.content[m.content.length - 1]!;
        const field = block.type === "thinking" ? "thinking" : block.type === "text" ? "text" : undefined;
        if (field) block[field] = String(block[field]) + PIECES[next() % PIECES.length];
      }
      if (i % 50 === 0) m.usage.output = i;
      expect(snapshotJson(m)).toBe(JSON.stringify(m));
    }
  });

  it("recovers when a block shrinks or gains fields", () => {
    const m = message();
    m.content.push({ type: "text", text: "abcdef" });
    snapshotJson(m);
    m.content[0] = { type: "text", text: "abc" };
    expect(snapshotJson(m)).toBe(JSON.stringify(m));
    m.content[0]!.textSignature = "sig";
    expect(snapshotJson(m)).toBe(JSON.stringify(m));
  });

  it("message_update lines carry the snapshot twice and parse to the same event", () => {
    const m = message();
    m.content.push({ type: "text", text: "Hi there" });
    const event = { type: "message_update", message: m, assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: " there", partial: m } };
    const line = serialize(event);
    expect(JSON.parse(line)).toEqual(JSON.parse(JSON.stringify(event)));
    expect(line).toBe(JSON.stringify(event));
    // pi 1.x's top-level usage rides along, byte for byte.
    const withUsage = { type: "message_update", message: m, usage: m.usage, assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: " there", partial: m } };
    expect(serialize(withUsage)).toBe(JSON.stringify(withUsage));
    // Any other key: the general serialiser, so nothing is dropped.
    const extra = { ...withUsage, note: "x" };
    expect(serialize(extra)).toBe(JSON.stringify(extra));
  });
});
