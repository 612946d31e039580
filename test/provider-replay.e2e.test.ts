/**
 * The offline replay provider as a client sees it: cassette headers shape the model, turns replay
 * in order, the prompt picks a tape, and the bundled demo changes the folder only when asked to.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RpcClient, tempDir, textTurn, toolTurn, writeCassette } from "./helpers/rpc-client.js";

const clients: RpcClient[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) if (c.child.exitCode === null) c.child.kill("SIGKILL");
});

function start(model: string, agentDir: string, cwd?: string): RpcClient {
  const c = new RpcClient({ agentDir, ...(cwd ? { cwd } : {}), args: ["--mode", "rpc", "--no-session", "--provider", "replay", "--model", model] });
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

  it("a cassette with tapes plays the first whose `when` matches the run's prompt, else the default", async () => {
    const agentDir = tempDir();
    const text = (words: string) => [{ type: "turn" }, ...textTurn(words)];
    const lines = [{ type: "cassette", version: 1 }, { type: "tape", when: "\\bweather\\b" }, ...text("sunny"), { type: "tape" }, ...text("no idea")];
    const dir = join(agentDir, "cassettes");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "tapes.jsonl"), lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
    const c = start("tapes", agentDir);
    for (const [prompt, answer] of [
      ["What's the WEATHER like?", "sunny"],
      ["Tell me a joke", "no idea"],
      ["weather again", "sunny"],
    ]) {
      const from = c.records.length;
      await c.request({ type: "prompt", message: prompt });
      await c.waitForEvent("agent_end", 10_000, from);
      expect(await c.request({ type: "get_last_assistant_text" })).toMatchObject({ data: { text: answer } });
    }
  });

  it("the bundled demo leaves the folder as it was unless the prompt asks for a file", async () => {
    const cwd = tempDir("atomic-cwd-");
    writeFileSync(join(cwd, "index.ts"), "export {};\n");
    const c = start("demo", tempDir(), cwd);
    await c.request({ type: "prompt", message: "Explain index.ts" });
    await c.waitForEvent("agent_end", 20_000);
    const tools = c.records.filter((r) => r.type === "tool_execution_start").map((r) => r.toolName);
    expect(tools).toEqual(["bash"]);
    expect(readdirSync(cwd)).toEqual(["index.ts"]);
    expect(((await c.request({ type: "get_last_assistant_text" })).data as { text: string }).text).toMatch(/nothing in it was changed/i);

    const from = c.records.length;
    await c.request({ type: "prompt", message: "Create a notes file saying hello, then show me it exists." });
    await c.waitForEvent("agent_end", 20_000, from);
    expect(
      c.records
        .slice(from)
        .filter((r) => r.type === "tool_execution_start")
        .map((r) => r.toolName),
    ).toEqual(["write", "read"]);
    expect(readFileSync(join(cwd, "notes", "hello.md"), "utf8")).toMatch(/^# Hello from Atomic/);
  });
});
