/**
 * A virtual model's router over the built CLI when the routed call fails with a 429: the retry
 * plugin's automatic retry reaches the router as pi 1.6's `retry` request, naming the failed call
 * (the physical model, the thinking level it was routed at and its error) and carrying the router
 * state of the session branch. Answers record their thinking level, as pi's do, so the next
 * request's `previous` names it too.
 */
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { notified, promptSettled, startExtensionAgent, useExtensionAgents } from "./helpers/extension-agent.js";
import type { RpcClient } from "./helpers/rpc-client.js";

const probe = resolve(import.meta.dirname, "fixtures/extensions/retry-router.ts");
const clients: RpcClient[] = [];
const fake = useExtensionAgents(clients);

describe("a virtual model's retry route (pi 1.6)", () => {
  it("a 429 on the routed model: the automatic retry is routed as retry with failed (its thinking level included), then answers", async () => {
    const client = await startExtensionAgent(fake, { extensions: [probe], model: "router/auto", settings: { retry: { baseDelayMs: 10 } } });
    clients.push(client);
    fake.script({ status: 429 }, { text: "recovered" }, { text: "second answer" });
    const from = await promptSettled(client, "hello");
    await client.waitForEvent("auto_retry_end", 15_000, from);
    expect(client.records.slice(from).filter((r) => r.type === "auto_retry_end")).toEqual([{ type: "auto_retry_end", success: true, attempt: 1 }]);
    await promptSettled(client, "and again");

    const at = client.records.length;
    await client.ok({ type: "prompt", message: "/routes" });
    const routed = JSON.parse(String((await notified(client, /^routes /, at)).message).slice("routes ".length));
    // The router picked `minimal` (not one of the virtual model's levels): the answers record it and
    // the router reads it back, as the failed call's and as the previous answer's level.
    expect(routed).toEqual([
      { reason: "user" },
      {
        reason: "retry",
        state: { calls: 1 },
        failed: { model: "fake-openai/fake-1", thinkingLevel: "minimal", stopReason: "error", errorMessage: expect.stringContaining("429") },
      },
      { reason: "user", state: { calls: 2 }, previous: { model: "fake-openai/fake-1", thinkingLevel: "minimal" } },
    ]);
    // Every call reached the fake as fake-1 at the routed level.
    expect(fake.requests.map((request) => request.body as { model: string; reasoning_effort?: string })).toEqual(
      Array(3).fill(expect.objectContaining({ model: "fake-1", reasoning_effort: "minimal" })),
    );
    const { messages } = await client.ok({ type: "get_messages" });
    const answers = (messages as { role: string; thinkingLevel?: string }[]).filter((m) => m.role === "assistant");
    expect(answers.map((m) => m.thinkingLevel)).toEqual(["minimal", "minimal"]);
  });

  it("a physical model's answer records the session's thinking level", async () => {
    const client = await startExtensionAgent(fake, { extensions: [probe] });
    clients.push(client);
    await client.ok({ type: "set_thinking_level", level: "low" });
    await promptSettled(client, "hello");
    const { messages } = await client.ok({ type: "get_messages" });
    expect((messages as { role: string; thinkingLevel?: string }[]).filter((m) => m.role === "assistant").map((m) => m.thinkingLevel)).toEqual(["low"]);
  });
});
