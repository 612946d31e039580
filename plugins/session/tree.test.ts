import { describe, expect, it } from "vitest";
import type { SessionEntry } from "./api.js";
import { assistant, user } from "./fixtures.test-support.js";
import { SessionTree } from "./tree.js";

function msg(id: string, parentId: string | null, text = id): SessionEntry {
  return { type: "message", id, parentId, timestamp: "2026-01-01T00:00:00.000Z", message: user(text) };
}

describe("SessionTree", () => {
  it("should chain appends and move the leaf", () => {
    const tree = new SessionTree();
    expect(tree.leafId).toBeNull();
    const a = tree.append({ type: "message", message: user("u1") });
    const b = tree.append({ type: "message", message: assistant("a1") });
    expect(a.parentId).toBeNull();
    expect(b.parentId).toBe(a.id);
    expect(tree.leafId).toBe(b.id);
    expect(tree.branch().map((e) => e.id)).toEqual([a.id, b.id]);
    expect(tree.messageCount).toBe(2);
  });

  it("should give unique 8-hex ids and redraw on collision", () => {
    const draws = ["aaaaaaaa", "aaaaaaaa", "aaaaaaaa", "bbbbbbbb"];
    const tree = new SessionTree(() => draws.shift()!);
    const first = tree.append({ type: "custom", customType: "x" });
    const second = tree.append({ type: "custom", customType: "x" });
    expect([first.id, second.id]).toEqual(["aaaaaaaa", "bbbbbbbb"]);

    const random = new SessionTree();
    const ids = new Set<string>();
    for (let i = 0; i < 2000; i++) ids.add(random.append({ type: "custom", customType: "x" }).id);
    expect(ids.size).toBe(2000);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}$/);
  });

  it("should branch when the leaf is moved back, keeping children in append order", () => {
    const tree = new SessionTree();
    const u1 = tree.append({ type: "message", message: user("u1") });
    const a1 = tree.append({ type: "message", message: assistant("a1") });
    tree.moveLeaf(u1.id);
    const a2 = tree.append({ type: "message", message: assistant("a2") });
    expect(a2.parentId).toBe(u1.id);
    expect(tree.branch().map((e) => e.id)).toEqual([u1.id, a2.id]);
    const [root] = tree.tree();
    expect(root!.entry.id).toBe(u1.id);
    expect(root!.children.map((n) => n.entry.id)).toEqual([a1.id, a2.id]);
    expect(() => tree.moveLeaf("nope")).toThrow("Entry not found: nope");
  });

  it("should take the last entry in file order as the leaf on load", () => {
    const tree = SessionTree.fromEntries([msg("e1", null), msg("e2", "e1"), msg("e3", "e1")]);
    expect(tree.leafId).toBe("e3");
    expect(tree.branch().map((e) => e.id)).toEqual(["e1", "e3"]);
  });

  it("should list orphans (unknown or later parent) as extra roots", () => {
    const tree = SessionTree.fromEntries([msg("e1", null), msg("e2", "missing"), msg("e3", "e4"), msg("e4", "e3"), msg("e5", "e2")]);
    const roots = tree.tree();
    expect(roots.map((n) => n.entry.id)).toEqual(["e1", "e2", "e3"]);
    expect(roots[1]!.children.map((n) => n.entry.id)).toEqual(["e5"]);
    expect(roots[2]!.children.map((n) => n.entry.id)).toEqual(["e4"]);
    // A parent cycle in a corrupted file cannot loop: e3 -> e4 only goes one way.
    expect(tree.pathTo("e4").map((e) => e.id)).toEqual(["e3", "e4"]);
  });

  it("should return entries strictly after `since`, or undefined when unknown", () => {
    const tree = SessionTree.fromEntries([msg("e1", null), msg("e2", "e1"), msg("e3", "e2")]);
    expect(tree.since("e1")!.map((e) => e.id)).toEqual(["e2", "e3"]);
    expect(tree.since("e3")).toEqual([]);
    expect(tree.since("zzz")).toBeUndefined();
  });

  it("should answer `since` without scanning the entries before the cursor", () => {
    // Counted, not timed: every read of an entry's id after the tree is built is a scan step
    // (a scan-based lookup reads ~100,000 ids per call; the index reads none).
    let idReads = 0;
    const entries: SessionEntry[] = [];
    for (let i = 0; i < 100_000; i++) {
      const entry = msg(`e${i}`, i ? `e${i - 1}` : null);
      const id = entry.id;
      Object.defineProperty(entry, "id", { enumerable: true, get: () => (idReads++, id) });
      entries.push(entry);
    }
    const tree = SessionTree.fromEntries(entries);
    idReads = 0;
    for (let i = 0; i < 1000; i++) expect(tree.since("e99997")).toHaveLength(2);
    expect(tree.since("e0")).toHaveLength(99_999);
    expect(idReads).toBe(0);
  });

  it("should apply and clear labels on tree nodes", () => {
    const tree = new SessionTree();
    const u1 = tree.append({ type: "message", message: user("u1") });
    tree.append({ type: "label", targetId: u1.id, label: "start" });
    expect(tree.tree()[0]!.label).toBe("start");
    expect(tree.tree()[0]!.labelTimestamp).toBeTypeOf("string");
    tree.append({ type: "label", targetId: u1.id });
    expect(tree.tree()[0]!.label).toBeUndefined();
  });

  it("should list fork points: non-empty user messages, all branches, append order", () => {
    const tree = new SessionTree();
    const u1 = tree.append({ type: "message", message: user("first") });
    tree.append({ type: "message", message: assistant("a1") });
    tree.append({ type: "message", message: user("") });
    tree.moveLeaf(u1.id);
    const u3 = tree.append({
      type: "message",
      message: {
        role: "user",
        content: [
          { type: "text", text: "sec" },
          { type: "text", text: "ond" },
        ],
        timestamp: 1,
      },
    });
    expect(tree.forkPoints()).toEqual([
      { entryId: u1.id, text: "first" },
      { entryId: u3.id, text: "second" },
    ]);
  });

  it("should take the name from the newest session_info entry", () => {
    const tree = new SessionTree();
    expect(tree.name).toBeUndefined();
    tree.append({ type: "session_info", name: "  Foo " });
    expect(tree.name).toBe("Foo");
    tree.append({ type: "session_info", name: "" });
    expect(tree.name).toBeUndefined();
  });

  it("should refuse duplicate ids on insert", () => {
    const tree = SessionTree.fromEntries([msg("e1", null)]);
    expect(() => tree.insert(msg("e1", null))).toThrow("Duplicate entry id");
  });
});
