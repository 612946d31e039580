/**
 * pi 1.6 drop-in behaviours (issue 39), over the built CLI and the fake LLM: each as pi 1.6
 * answers the same input.
 */
import { resolve } from "node:path";
import { expect, it } from "vitest";
import { promptSettled, startExtensionAgent, useExtensionAgents } from "./helpers/extension-agent.js";
import type { RpcClient } from "./helpers/rpc-client.js";

const example = (name: string) => resolve(import.meta.dirname, "../node_modules/@earendil-works/pi-coding-agent/examples/extensions", name);
const clients: RpcClient[] = [];
const fake = useExtensionAgents(clients);

async function start(extensions: string[], args: string[] = []): Promise<RpcClient> {
  const client = await startExtensionAgent(fake, { extensions, args });
  clients.push(client);
  return client;
}

it("pi 1.6's structured-output example: a tool result with terminate ends the run without another LLM request", async () => {
  const c = await start([example("structured-output.ts")]);
  fake.script(
    { toolCalls: [{ name: "structured_output", args: { headline: "Plan", summary: "Two steps.", actionItems: ["one", "two"] } }] },
    { text: "a third request pi never makes" },
  );
  await promptSettled(c, "Summarise as structured output.");
  expect(fake.requests).toHaveLength(1);
  const { messages } = (await c.ok({ type: "get_messages" })) as { messages: { role: string; content: { text?: string }[] }[] };
  expect(messages.map((message) => message.role).filter((role) => role !== "system")).toEqual(["user", "assistant", "toolResult"]);
  expect(messages.at(-1)!.content[0]!.text).toBe("Saved structured output: Plan");
  expect(c.records.filter((record) => record.type === "extension_error")).toEqual([]);
});
