import { describe, expect, it } from "vitest";
import { computeSessionTotals, estimateContextTokens } from "./stats.js";
import { assistant, toolResult, user } from "./fixtures.test-support.js";
import { SessionTree } from "./tree.js";

describe("session stats", () => {
  it("should count messages, tool calls and usage over every branch", () => {
    const tree = new SessionTree();
    const u1 = tree.append({ type: "message", message: user("u1") });
    const withCalls = assistant("calling", {
      content: [
        { type: "toolCall", id: "c1", name: "bash", arguments: {} },
        { type: "toolCall", id: "c2", name: "read", arguments: {} },
      ],
      stopReason: "toolUse",
    });
    tree.append({ type: "message", message: withCalls });
    tree.append({ type: "message", message: toolResult("c1", "ok") });
    tree.append({ type: "message", message: toolResult("c2", "ok") });
    tree.moveLeaf(u1.id); // abandoned branch above still counts
    tree.append({ type: "message", message: assistant("other") });
    tree.append({ type: "message", message: { role: "bashExecution", command: "ls", output: "", cancelled: false, truncated: false, fullOutputPath: null, timestamp: 1 } });
    tree.append({ type: "model_change", provider: "p", modelId: "m" });

    const totals = computeSessionTotals(tree.entries());
    expect(totals).toMatchObject({ userMessages: 1, assistantMessages: 2, toolCalls: 2, toolResults: 2, totalMessages: 6 });
    expect(totals.tokens).toEqual({ input: 20, output: 10, cacheRead: 4, cacheWrite: 2, total: 36 });
    expect(totals.cost).toBeCloseTo(0.02);
  });

  it("counts a tool result's own model calls (codemode's classifiers) in the cost, not in the assistant tokens", () => {
    const tree = new SessionTree();
    tree.append({ type: "message", message: assistant("calling") });
    const usage = { input: 600, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 600, cost: { input: 0.03, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.03 } };
    tree.append({ type: "message", message: { ...toolResult("c1", "Script completed"), usage } });
    const totals = computeSessionTotals(tree.entries());
    expect(totals.tokens).toEqual({ input: 10, output: 5, cacheRead: 2, cacheWrite: 1, total: 18 });
    expect(totals.cost).toBeCloseTo(0.01 + 0.03);
  });

  it("should estimate context as last good usage plus chars/4 after it", () => {
    const good = assistant("x"); // usage 10+5+2+1 = 18
    const failed = assistant("y", { stopReason: "error" });
    expect(estimateContextTokens([user("a".repeat(400)), good, user("b".repeat(40)), failed])).toBe(18 + 10 + 1);
    // No usable assistant: everything is estimated.
    expect(estimateContextTokens([user("a".repeat(8))])).toBe(2);
  });
});
