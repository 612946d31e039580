import { describe, expect, it } from "vitest";
import type { NewSessionEntry, SessionEntry } from "./api.js";
import { buildSessionContext, VERBATIM_PREFIX } from "./context.js";
import { assistant, toolResult, user } from "./fixtures.test-support.js";
import { SessionTree } from "./tree.js";

function build(...entries: NewSessionEntry[]) {
  const tree = new SessionTree();
  const ids = entries.map((entry) => tree.append(entry).id);
  return { tree, ids };
}

const texts = (messages: unknown[]) => messages.map((m: any) => (typeof m.content === "string" ? m.content : m.content.map((b: any) => b.text).join("")));

describe("buildSessionContext", () => {
  it("should be empty for a null leaf or no entries", () => {
    expect(buildSessionContext([], null)).toEqual({ messages: [], model: null, thinkingLevel: null });
    const { tree } = build({ type: "message", message: user("u1") });
    expect(buildSessionContext(tree.entries(), null).messages).toEqual([]);
  });

  it("should follow the active branch only", () => {
    const tree = new SessionTree();
    const u1 = tree.append({ type: "message", message: user("u1") });
    tree.append({ type: "message", message: assistant("abandoned") });
    tree.moveLeaf(u1.id);
    const a2 = tree.append({ type: "message", message: assistant("kept") });
    const context = buildSessionContext(tree.entries(), a2.id);
    expect(texts(context.messages)).toEqual(["u1", "kept"]);
  });

  it("should fall back to the last entry for an unknown leaf", () => {
    const { tree } = build({ type: "message", message: user("u1") }, { type: "message", message: assistant("a1") });
    expect(texts(buildSessionContext(tree.entries(), "nope").messages)).toEqual(["u1", "a1"]);
  });

  it("should take model and thinking level from change entries and assistant messages", () => {
    const { tree, ids } = build(
      { type: "thinking_level_change", thinkingLevel: "high" },
      { type: "model_change", provider: "p", modelId: "m" },
      { type: "message", message: user("u1") },
    );
    expect(buildSessionContext(tree.entries(), ids[2]!)).toMatchObject({ model: { provider: "p", modelId: "m" }, thinkingLevel: "high" });
    const a = tree.append({ type: "message", message: assistant("a1", { provider: "q", model: "n" }) });
    expect(buildSessionContext(tree.entries(), a.id).model).toEqual({ provider: "q", modelId: "n" });
  });

  it("should replace messages before firstKeptEntryId with the compaction summary", () => {
    const { tree, ids } = build(
      { type: "message", message: user("u1") },
      { type: "message", message: assistant("a1") },
      { type: "message", message: user("u2") },
      { type: "message", message: assistant("a2") },
    );
    tree.append({ type: "compaction", summary: "SUMMARY", firstKeptEntryId: ids[2]!, tokensBefore: 100, details: { strategy: "x" } });
    const u3 = tree.append({ type: "message", message: user("u3") });
    const { messages } = buildSessionContext(tree.entries(), u3.id);
    expect(texts(messages)).toEqual(["SUMMARY", "u2", "a2", "u3"]);
    expect(messages[0]).toMatchObject({ role: "custom", customType: "compaction", display: true, details: { strategy: "x" } });
  });

  it("should keep nothing before the compaction when firstKeptEntryId is null or unknown", () => {
    for (const firstKeptEntryId of [null, "unknown1"]) {
      const { tree } = build({ type: "message", message: user("u1") }, { type: "message", message: assistant("a1") });
      tree.append({ type: "compaction", summary: "S", firstKeptEntryId, tokensBefore: 1 });
      const u2 = tree.append({ type: "message", message: user("u2") });
      expect(texts(buildSessionContext(tree.entries(), u2.id).messages)).toEqual(["S", "u2"]);
    }
  });

  it("should honour only the latest compaction on the path", () => {
    const { tree, ids } = build({ type: "message", message: user("u1") }, { type: "message", message: assistant("a1") });
    tree.append({ type: "compaction", summary: "OLD", firstKeptEntryId: ids[0]!, tokensBefore: 1 });
    const u2 = tree.append({ type: "message", message: user("u2") });
    tree.append({ type: "compaction", summary: "NEW", firstKeptEntryId: u2.id, tokensBefore: 1 });
    const a2 = tree.append({ type: "message", message: assistant("a2") });
    expect(texts(buildSessionContext(tree.entries(), a2.id).messages)).toEqual(["NEW", "u2", "a2"]);
  });

  it("should show a verbatim boundary as one message: the compacted text, then the kept tail as transcript", () => {
    const { tree, ids } = build(
      { type: "message", message: user("u1") },
      { type: "message", message: assistant("a1") },
      { type: "message", message: user("u2") },
      { type: "message", message: assistant("a2") },
    );
    const details = { strategy: "verbatim-lines" };
    tree.append({ type: "compaction", summary: "[User]: u1\n(filtered 3 lines)", firstKeptEntryId: ids[2]!, tokensBefore: 100, details });
    const u3 = tree.append({ type: "message", message: user("u3") });
    const { messages } = buildSessionContext(tree.entries(), u3.id);
    expect(texts(messages)).toEqual([`${VERBATIM_PREFIX}[User]: u1\n(filtered 3 lines)\n\n[User]: u2\n\n[Assistant]: a2`, "u3"]);
    expect(messages[0]).toMatchObject({ role: "custom", customType: "compaction", details });
    expect(JSON.stringify(messages)).not.toContain("a1");
  });

  it("should show only the compacted text with firstKeptEntryId null, and keep tail tool calls and images", () => {
    const details = { strategy: "verbatim-lines" };
    const { tree } = build({ type: "message", message: user("u1") }, { type: "message", message: assistant("a1") });
    tree.append({ type: "compaction", summary: "S", firstKeptEntryId: null, tokensBefore: 1, details });
    const u2 = tree.append({ type: "message", message: user("u2") });
    expect(texts(buildSessionContext(tree.entries(), u2.id).messages)).toEqual([`${VERBATIM_PREFIX}S`, "u2"]);

    const image = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
    const call = assistant("", { content: [{ type: "toolCall", id: "c1", name: "read", arguments: { path: "old.ts" } }], stopReason: "toolUse" });
    const other = build(
      { type: "message", message: user("u1") },
      { type: "message", message: call },
      { type: "message", message: { ...toolResult("c1", "body"), content: [{ type: "text", text: "body" }, image] } },
    );
    other.tree.append({ type: "compaction", summary: "S", firstKeptEntryId: other.ids[1]!, tokensBefore: 1, details });
    const [boundary] = buildSessionContext(other.tree.entries(), other.tree.leafId).messages;
    expect((boundary as { content: unknown }).content).toEqual([
      { type: "text", text: `${VERBATIM_PREFIX}S\n\n[Assistant tool calls]: read(path="old.ts")\n\n[Tool result]: body\n[image]` },
      image,
    ]);
  });

  // Timing lives in bench/session-load.mjs; here only that a 100k chain builds (no recursion limit).
  it("should build a 100,000-entry chain", () => {
    const entries: SessionEntry[] = [];
    for (let i = 0; i < 100_000; i++) {
      entries.push({ type: "message", id: `e${i}`, parentId: i ? `e${i - 1}` : null, timestamp: "", message: user(`m${i}`) });
    }
    const { messages } = buildSessionContext(entries, "e99999");
    expect(messages).toHaveLength(100_000);
  });
});
