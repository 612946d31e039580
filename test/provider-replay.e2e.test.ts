/** The offline replay provider as a client sees it: cassette headers shape the model, turns replay in order. */
import { afterEach, describe, expect, it } from "vitest";
import { RpcClient, tempDir, textTurn, toolTurn, writeCassette } from "./helpers/rpc-client.js";

const clients: RpcClient[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) if (c.child.exitCode === null) c.child.kill("SIGKILL");
});

function start(model: string, agentDir: string): RpcClient {
  const c = new RpcClient({ agentDir, args: ["--mode", "rpc", "--no-session", "--provider", "replay", "--model", model] });
  clients.push(c);
  return c;
}

describe("provider-replay", () => {
  it("takes reasoning and contextWindow from the cassette header", async () => {
    const agentDir = tempDir();
    writeCassette(agentDir, "thinker", [textTurn("hi")], { reasoning: true, contextWindow: 64_000 });
    const c = start("thinker", agentDir);
    const models = (await c.request({ type: "get_available_models" })).data as { models: { id: string; reasoning: boolean; contextWindow: number }[] };
    expect(models.models.find((m) => m.id === "thinker")).toMatchObject({ reasoning: true, contextWindow: 64_000 });
    expect(models.models.find((m) => m.id === "demo")).toMatchObject({ reasoning: false, contextWindow: 200_000 });
    expect(await c.request({ type: "set_thinking_level", level: "high" })).toMatchObject({ success: true });
    expect(await c.request({ type: "get_state" })).toMatchObject({ data: { thinkingLevel: "high" } });
  });

  it("replays the n-th turn on the n-th model call of each run", async () => {
    const agentDir = tempDir();
    writeCassette(agentDir, "two", [toolTurn("c1", "ls", { path: "." }), textTurn("second call")]);
    const c = start("two", agentDir);
    for (let run = 0; run < 2; run++) {
      const from = c.records.length;
      await c.request({ type: "prompt", message: "go" });
      await c.waitForEvent("agent_end", 10_000, from);
      expect(c.records.slice(from).filter((r) => r.type === "tool_execution_end")).toHaveLength(1);
      expect(await c.request({ type: "get_last_assistant_text" })).toMatchObject({ data: { text: "second call" } });
    }
  });

  it("a run that calls the model more often than recorded ends with Cassette exhausted", async () => {
    const agentDir = tempDir();
    writeCassette(agentDir, "short", [toolTurn("c1", "ls", { path: "." })]);
    const c = start("short", agentDir);
    await c.request({ type: "prompt", message: "go" });
    const end = await c.waitForEvent("agent_end");
    const last = (end.messages as { role: string; stopReason?: string; errorMessage?: string }[]).at(-1)!;
    expect(last).toMatchObject({ role: "assistant", stopReason: "error", errorMessage: "Cassette exhausted: short" });
  });
});
