/** Session behaviours from the protocol reference: labels across clone/fork, context usage after compaction. */
import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../lib/llm/index.js";
import { assistant, user } from "./fixtures.test-support.js";
import { SessionManager } from "./manager.js";
import { estimateContextTokens } from "./stats.js";

describe("clone and fork carry labels", () => {
  it("copies the path without label entries, then one fresh label per labelled entry, chained after the last", () => {
    const manager = new SessionManager({ cwd: "/work" });
    const u1 = manager.append({ type: "message", message: user("u1") });
    const a1 = manager.append({ type: "message", message: assistant("a1") });
    manager.append({ type: "label", targetId: u1.id, label: "start" });
    const u2 = manager.append({ type: "message", message: user("u2") });
    const a2 = manager.append({ type: "message", message: assistant("a2") });
    // Set on an abandoned branch, but it labels an entry of the active path.
    const tree = manager.current.tree;
    tree.moveLeaf(a1.id);
    const side = manager.append({ type: "label", targetId: a2.id, label: "the answer" });
    tree.moveLeaf(a2.id);

    const clone = manager.clone();
    const entries = clone.tree.entries();
    expect(entries.slice(0, 4).map((e) => e.id)).toEqual([u1.id, a1.id, u2.id, a2.id]);
    // u2 hung under the dropped label entry: re-linked to a1 so the chain stays whole.
    expect(entries.slice(0, 4).map((e) => e.parentId)).toEqual([null, u1.id, a1.id, u2.id]);
    expect(clone.tree.branch().filter((e) => e.type === "message")).toHaveLength(4);
    const labels = entries.slice(4);
    expect(labels.map((e) => e.type === "label" && [e.targetId, e.label])).toEqual([
      [u1.id, "start"],
      [a2.id, "the answer"],
    ]);
    expect(labels[0]!.parentId).toBe(a2.id);
    expect(labels[1]!.parentId).toBe(labels[0]!.id);
    expect(labels[1]!.timestamp).toBe(side.timestamp);
    expect(clone.tree.tree()[0]!.label).toBe("start");
    expect(clone.unsaved).toBe(true);

    const fork = manager.forkFrom(u2.id);
    expect(fork.tree.entries().map((e) => (e.type === "label" ? `label:${e.targetId}` : e.id))).toEqual([u1.id, a1.id, `label:${u1.id}`]);
  });
});

describe("context usage after a compaction", () => {
  const compaction = (timestamp: number): AgentMessage => ({ role: "custom", customType: "compaction", content: "summary", display: true, timestamp });

  it("is null until a fresh answer reports usage; kept older answers do not count", () => {
    const kept = assistant("kept", { timestamp: 5 });
    expect(estimateContextTokens([compaction(10), user("u", 4), kept])).toBeNull();
    expect(estimateContextTokens([compaction(10), user("u", 4), kept, user("next", 11)])).toBeNull();
    const fresh = assistant("fresh", { timestamp: 12 }); // usage 18
    expect(estimateContextTokens([compaction(10), user("u", 4), kept, user("next".repeat(10), 11), fresh, user("x".repeat(8), 13)])).toBe(18 + 2);
  });
});
