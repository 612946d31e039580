import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../lib/llm/index.js";
import type { NewSessionEntry, SessionEntry } from "../session/api.js";
import { DEFAULT_QUERY, prepareRegion, tailFrom } from "./region.js";

const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const user = (text: string): AgentMessage => ({ role: "user", content: text, timestamp: 1 });
const answer = (text: string, stopReason: "stop" | "error" = "stop"): AgentMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
  api: "a",
  provider: "p",
  model: "m",
  usage,
  stopReason,
  timestamp: 2,
});

/** A linear path of entries e1, e2, ... */
function path(...items: (AgentMessage | NewSessionEntry)[]): SessionEntry[] {
  return items.map((item, i) => {
    const base = { id: `e${i + 1}`, parentId: i === 0 ? null : `e${i}`, timestamp: "2026-01-01T00:00:00.000Z" };
    return ("role" in item ? { ...base, type: "message", message: item } : { ...base, ...item }) as SessionEntry;
  });
}

const conversation = () => path(user("m1"), answer("m2"), user("m3"), answer("m4"), user("m5"), answer("m6"), user("m7"));

describe("prepareRegion", () => {
  it("should keep the newest preserve_recent visible messages out of the region", () => {
    const region = prepareRegion(conversation(), 2);
    expect(region.lines).toEqual(["[User]: m1", "", "[Assistant]: m2", "", "[User]: m3", "", "[Assistant]: m4", "", "[User]: m5"]);
    expect(region.tail.map((t) => t.entryId)).toEqual(["e6", "e7"]);
    expect(region.firstKeptEntryId).toBe("e6");
    expect(region.messages).toHaveLength(5);
  });

  it("should send everything and keep nothing with preserve_recent 0, and nothing to compact when it covers all", () => {
    const none = prepareRegion(conversation(), 0);
    expect(none.firstKeptEntryId).toBeNull();
    expect(none.tail).toEqual([]);
    expect(none.lines.at(-1)).toBe("[User]: m7");
    const all = prepareRegion(conversation(), 10);
    expect(all.lines).toEqual([]);
    expect(all.firstKeptEntryId).toBe("e1");
  });

  it("should count only messages the model sees for the tail", () => {
    const excluded: AgentMessage = { role: "custom", customType: "note", content: "hidden", display: false, excludeFromContext: true, timestamp: 3 };
    const entries = path(user("m1"), answer("m2"), user("m3"), answer("m4"), user("m5"), answer("m6"), excluded, user("m7"), answer("boom", "error"));
    const region = prepareRegion(entries, 2);
    expect(region.tail.map((t) => t.entryId)).toEqual(["e6", "e8"]);
    expect(region.lines.join("\n")).not.toContain("hidden");
  });

  it("should open the region with the previous compaction's text and its kept tail", () => {
    const entries = path(
      user("m1"),
      answer("m2"),
      user("m3"),
      { type: "compaction", summary: "[User]: m1\n(filtered 2 lines)", firstKeptEntryId: "e3", tokensBefore: 10, details: { strategy: "verbatim-lines" } },
      answer("m4"),
      user("m5"),
      answer("m6"),
    );
    const region = prepareRegion(entries, 2);
    expect(region.lines).toEqual(["[User]: m1", "(filtered 2 lines)", "[User]: m3", "", "[Assistant]: m4"]);
    expect(region.previousSummary).toBe("[User]: m1\n(filtered 2 lines)");
    expect(region.firstKeptEntryId).toBe("e6");
  });

  it("should focus on the query given, else the newest user request", () => {
    expect(prepareRegion(conversation(), 2).query).toBe("m7");
    expect(prepareRegion(conversation(), 2, "  the parser bug ").query).toBe("the parser bug");
    expect(prepareRegion(path(answer("only")), 0).query).toBe(DEFAULT_QUERY);
  });

  it("should estimate the tail's tokens", () => {
    expect(prepareRegion(path(user("x".repeat(40)), answer("y".repeat(8))), 2).tailTokens).toBe(12);
  });
});

describe("tailFrom", () => {
  it("should list the visible messages from an entry on, or undefined off the path", () => {
    expect(tailFrom(conversation(), "e6")?.map((t) => t.entryId)).toEqual(["e6", "e7"]);
    expect(tailFrom(conversation(), "nope")).toBeUndefined();
  });
});
