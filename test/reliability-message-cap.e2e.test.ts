/**
 * One assistant message is bounded (issue 26, item 7): an answer that streams past
 * `assistantMessageMaxChars` is stopped (its HTTP request cancelled) and ends as an `error`
 * naming the setting, not retried; the agent serves on. Before, a 1.2 GB answer streamed to
 * its end and made 110 GB of stdout.
 */
import { afterEach, describe, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";
import { RpcClient, tempDir, type Record_ } from "./helpers/rpc-client.js";

const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };
const fake = useFakeLlm();
const clients: RpcClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

describe("assistantMessageMaxChars", () => {
  it("stops an answer that streams past the cap with an error naming the setting; no retry; the agent serves on", async () => {
    const chunk = "y".repeat(1000);
    // 2 MB offered, slowly enough that the cap is reached long before the end.
    fake.script({ text: chunk.repeat(2000), textChunks: Array.from({ length: 2000 }, () => chunk), chunkDelayMs: 1 });
    const agentDir = tempDir("atomic-agent-");
    await writeModelsJson(agentDir, fake.url);
    const c = new RpcClient({
      agentDir,
      settings: { assistantMessageMaxChars: 100_000, retry: { baseDelayMs: 10 } },
      env: NO_KEYS,
      args: ["--mode", "rpc", "--no-session", "--model", "fake-openai/fake-1"],
    });
    clients.push(c);
    const from = c.records.length;
    expect((await c.request({ type: "prompt", message: "Write forever." })).success).toBe(true);
    await c.waitForEvent("agent_end", 30_000, from);
    const ends = c.records.slice(from).filter((r) => r.type === "message_end" && (r.message as { role: string }).role === "assistant");
    const message = ends.at(-1)!.message as { stopReason: string; errorMessage: string; content: { type: string; text: string }[] };
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toBe(
      "The assistant message grew past 100000 characters, the most one message may hold (settings: assistantMessageMaxChars), so its stream was stopped",
    );
    const kept = message.content.filter((block) => block.type === "text").reduce((sum, block) => sum + block.text.length, 0);
    expect(kept).toBeGreaterThan(100_000);
    expect(kept).toBeLessThanOrEqual(101_000);
    // The request was cancelled, not read to its end.
    await fake.waitForDisconnect(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(c.records.slice(from).some((r: Record_) => r.type === "auto_retry_start")).toBe(false);
    expect(fake.requests).toHaveLength(1);
    expect(await c.ok({ type: "get_state" })).toMatchObject({ isStreaming: false });
  }, 60_000);
});
