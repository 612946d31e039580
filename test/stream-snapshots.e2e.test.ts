/**
 * The default format's snapshots over real SDKs and HTTP: the adapters hand over a network
 * read's events as one lazy batch, and every `message_update` must still carry the partial
 * message exactly as it was at its own event (never a later delta, never a block that starts
 * further on in the same read). The fake server writes a whole answer at once, so thinking,
 * text and a tool call arrive in the same reads.
 */
import { afterEach, describe, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";
import { RpcClient, tempDir, type Record_ } from "./helpers/rpc-client.js";

const fake = useFakeLlm();
const clients: RpcClient[] = [];
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };

afterEach(() => {
  for (const c of clients.splice(0)) if (c.child.exitCode === null) c.child.kill("SIGKILL");
});

interface Block {
  type: string;
  text?: string;
  thinking?: string;
  arguments?: Record<string, unknown>;
}

/** Replays the events on an empty message and checks each record's snapshot against it. */
function checkSnapshots(updates: Record_[]): { blocks: Block[] } {
  const blocks: Block[] = [];
  for (const update of updates) {
    const event = update.assistantMessageEvent as { type: string; contentIndex: number; delta?: string; partial: unknown };
    if (event.type === "text_start") blocks.push({ type: "text", text: "" });
    else if (event.type === "thinking_start") blocks.push({ type: "thinking", thinking: "" });
    else if (event.type === "toolcall_start") blocks.push({ type: "toolCall" });
    else if (event.type === "text_delta") blocks[event.contentIndex]!.text += event.delta!;
    else if (event.type === "thinking_delta") blocks[event.contentIndex]!.thinking += event.delta!;
    const snapshot = (update.message as { content: Block[] }).content;
    expect(event.partial).toEqual(update.message);
    expect(snapshot.map((block) => block.type)).toEqual(blocks.map((block) => block.type));
    blocks.forEach((block, index) => {
      if (block.type === "text") expect(snapshot[index]!.text).toBe(block.text);
      if (block.type === "thinking") expect(snapshot[index]!.thinking).toBe(block.thinking);
    });
  }
  return { blocks };
}

const words = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i} `).join("");

describe("default format over the SDKs: each snapshot matches its own event", () => {
  for (const provider of ["fake-openai", "fake-responses", "fake-anthropic", "fake-google"] as const) {
    it(provider, async () => {
      const thinking = words("think", 150);
      const text = words("word", 300);
      fake.script({ thinking, text, toolCalls: [{ name: "ls", args: { path: "." } }] }, { text: "Listed." });
      const agentDir = tempDir();
      await writeModelsJson(agentDir, fake.url);
      const c = new RpcClient({ agentDir, args: ["--mode", "rpc", "--no-session", "--model", `${provider}/fake-1`, "--thinking", "high"], env: NO_KEYS });
      clients.push(c);
      const from = c.records.length;
      await c.ok({ type: "prompt", message: "think, say, list" });
      await c.waitForEvent("agent_end", 20_000, from);
      const firstEnd = c.records.findIndex((record, index) => index >= from && record.type === "message_end" && (record.message as { role: string }).role === "assistant");
      const updates = c.records.slice(from, firstEnd).filter((record) => record.type === "message_update");
      const { blocks } = checkSnapshots(updates);
      expect(blocks.map((block) => block.type)).toEqual(["thinking", "text", "toolCall"]);
      expect(blocks[0]!.thinking).toBe(thinking);
      expect(blocks[1]!.text).toBe(text);
      expect(updates.length).toBeGreaterThan(450);
    });
  }
});
