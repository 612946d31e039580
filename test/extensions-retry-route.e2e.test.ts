/**
 * A virtual model's router over the built CLI when the routed call fails with a 429: the retry
 * plugin's automatic retry reaches the router as pi 1.6's `retry` request, naming the failed call
 * (the physical model and its error) and carrying the router state of the session branch.
 */
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { notified, promptSettled, startExtensionAgent, useExtensionAgents } from "./helpers/extension-agent.js";
import type { RpcClient } from "./helpers/rpc-client.js";

const probe = resolve(import.meta.dirname, "fixtures/extensions/retry-router.ts");
const clients: RpcClient[] = [];
const fake = useExtensionAgents(clients);

describe("a virtual model's retry route (pi 1.6)", () => {
  it("a 429 on the routed model: the automatic retry is routed as retry with failed, then answers", async () => {
    const client = await startExtensionAgent(fake, { extensions: [probe], model: "router/auto", settings: { retry: { baseDelayMs: 10 } } });
    clients.push(client);
    fake.script({ status: 429 }, { text: "recovered" });
    const from = await promptSettled(client, "hello");
    await client.waitForEvent("auto_retry_end", 15_000, from);
    expect(client.records.slice(from).filter((r) => r.type === "auto_retry_end")).toEqual([{ type: "auto_retry_end", success: true, attempt: 1 }]);

    const at = client.records.length;
    await client.ok({ type: "prompt", message: "/routes" });
    const routed = JSON.parse(String((await notified(client, /^routes /, at)).message).slice("routes ".length));
    expect(routed).toEqual([
      { reason: "user" },
      {
        reason: "retry",
        state: { calls: 1 },
        failed: { model: "fake-openai/fake-1", stopReason: "error", errorMessage: expect.stringContaining("429") },
      },
    ]);
    // Both calls reached the fake: the failed one and the retry, each as fake-1.
    expect(fake.requests.map((request) => (request.body as { model: string }).model)).toEqual(["fake-1", "fake-1"]);
  });
});
