/**
 * pi 1.6.0's own example extensions at work (not only loaded), over the built CLI and the fake
 * LLM: debug-provider records the provider's raw stream events (provider_stream_event, the
 * headless pi-tui it imports), prompt-customizer's `systemPromptOptions.sections` reach the
 * model, and a probe sees pi 1.x's ctx fields and agent_settled's `aborted` over RPC.
 */
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { notified, promptSettled, startExtensionAgent, useExtensionAgents, wireText } from "./helpers/extension-agent.js";
import type { RpcClient } from "./helpers/rpc-client.js";

const example = (name: string) => resolve(import.meta.dirname, "../node_modules/@earendil-works/pi-coding-agent/examples/extensions", name);
const fixture = (name: string) => resolve(import.meta.dirname, "fixtures/extensions", `${name}.ts`);
const clients: RpcClient[] = [];
const fake = useExtensionAgents(clients);

async function start(extensions: string[], args: string[] = []): Promise<RpcClient> {
  const client = await startExtensionAgent(fake, { extensions, args });
  clients.push(client);
  return client;
}

describe("pi 1.6.0 examples at work", () => {
  it.each(["fake-openai", "fake-anthropic", "fake-responses", "fake-google"])("debug-provider stores the parsed stream events of each answer (%s)", async (provider) => {
    const c = await startExtensionAgent(fake, { extensions: [example("debug-provider.ts")], model: `${provider}/fake-1` });
    clients.push(c);
    fake.script({ text: "hello there" });
    await c.ok({ type: "prompt", message: "/debug-provider on" });
    await notified(c, "Provider event capture enabled");
    await promptSettled(c, "hi");
    const { entries } = (await c.ok({ type: "get_entries" })) as {
      entries: { type: string; customType?: string; data?: { provider: string; model: string; events: unknown[] } }[];
    };
    const captured = entries.filter((entry) => entry.type === "custom" && entry.customType === "debug-provider-events");
    expect(captured).toHaveLength(1);
    const { model, events } = captured[0]!.data!;
    expect([captured[0]!.data!.provider, model]).toEqual([provider, "fake-1"]);
    // The events as the server sent them, parsed: objects of the vendor's wire format that carry the answer.
    expect(events.length).toBeGreaterThan(1);
    // OpenAI ends with a `[DONE]` data line, which is no JSON: it stays text.
    expect(events.filter((event) => event !== "[DONE]").every((event) => typeof event === "object" && event !== null)).toBe(true);
    expect(JSON.stringify(events)).toMatch(/hello/);
    if (provider === "fake-openai") {
      const chunks = events as { choices?: { delta?: { content?: string } }[] }[];
      expect(chunks.map((chunk) => chunk.choices?.[0]?.delta?.content ?? "").join("")).toBe("hello there");
    }
    expect(c.records.filter((r) => r.type === "extension_error")).toEqual([]);
  });

  it("prompt-customizer's sections reach the model's system prompt", async () => {
    const c = await start([example("prompt-customizer.ts")]);
    await promptSettled(c, "hello");
    const system = (fake.requests[0]!.body.messages as { role: string; content: string }[])[0]!;
    expect(system.role).toBe("system");
    expect(wireText(system as never)).toMatch(/<tool_guidance>\n- Use `read` for file contents; it supports text and images\.[\s\S]*\n<\/tool_guidance>$/);
  });

  it("a probe sees ctx.mode, thinkingLevel and agent_settled's aborted flag", async () => {
    const c = await start([fixture("pi1-probe")]);
    await promptSettled(c, "first");
    const { thinkingLevel } = (await c.ok({ type: "get_state" })) as { thinkingLevel: string };
    await notified(c, `settled aborted=false mode=rpc thinking=${thinkingLevel}`);
    fake.script({ text: Array.from({ length: 60 }, (_, i) => `w${i}`).join(" "), chunkDelayMs: 25 });
    const from = c.records.length;
    await c.ok({ type: "prompt", message: "second" });
    await c.waitForEvent("message_update", 10_000, from);
    await c.ok({ type: "abort" });
    await notified(c, `settled aborted=true mode=rpc thinking=${thinkingLevel}`, from);
  });
});
