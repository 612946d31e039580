/**
 * The SDK's awaitable helpers (`await agent.prompt()`, pi's `await session.prompt()`) against the
 * loopback fake LLM over real HTTP: what a prompt resolves to, how a refused prompt, a failed
 * run, an abort and a dispose end it, and that `subscribe` still sees every event.
 */
import { afterEach, describe, expect, it } from "vitest";
import { AgentCommandError, AgentRunError, createAgent, type Agent, type AgentEvent } from "../sdk/index.js";
import { silentLogger } from "../kernel/index.js";
import { writeModelsJson } from "./fake-llm/server.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";
import { tempDir } from "./helpers/temp.js";

const fake = useFakeLlm({ perTest: true });
const agents: Agent[] = [];
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };

afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.dispose()));
});

async function newAgent(): Promise<Agent> {
  const dir = tempDir("atomic-sdk-await-");
  await writeModelsJson(dir, fake.url);
  const agent = await createAgent({ cwd: dir, agentDir: dir, model: "fake-openai/fake-1", session: false, env: { ...process.env, ...NO_KEYS }, log: silentLogger });
  agents.push(agent);
  return agent;
}

describe("agent.prompt", () => {
  it("resolves once the agent settles, with the run's messages, events and reply; subscribe sees all of it", async () => {
    const agent = await newAgent();
    fake.script({ toolCalls: [{ name: "bash", args: { command: "echo from-the-tool" } }] }, { text: "The tool said from-the-tool." });
    const seen: AgentEvent[] = [];
    agent.subscribe((event) => seen.push(event));

    const result = await agent.prompt("run the tool");

    expect(result.disposition).toBe("started");
    expect(result.aborted).toBe(false);
    expect(result.text).toBe("The tool said from-the-tool.");
    expect(result.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(JSON.stringify(result.messages[2])).toContain("from-the-tool");
    expect(result.events.some((e) => e.type === "agent_settled")).toBe(false);
    expect(result.events.filter((e) => e.type === "tool_execution_end")).toHaveLength(1);
    // The listener saw the same events, in the same order, then agent_settled.
    expect(seen.map((e) => e.type)).toEqual([...result.events.map((e) => e.type), "agent_settled"]);
    expect(await agent.getLastAssistantText()).toBe("The tool said from-the-tool.");
    expect((await agent.getMessages()).map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    // The result is the caller's: changing its messages leaves the agent's context alone.
    (result.messages[3] as { content: unknown }).content = [];
    expect(await agent.getLastAssistantText()).toBe("The tool said from-the-tool.");
  });

  it("a refused prompt rejects with the agent's error; abort() settles the run, whose prompt resolves aborted", async () => {
    const agent = await newAgent();
    fake.script({ text: "never finished", stall: 2 });
    const running = agent.prompt("a long one");
    await fake.waitForRequests(1);

    const refused = agent.prompt("while it streams");
    await expect(refused).rejects.toBeInstanceOf(AgentCommandError);
    await expect(refused).rejects.toThrow(/streamingBehavior/);

    await agent.abort();
    const result = await running;
    expect(result.aborted).toBe(true);
    expect(result.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
    await agent.waitForIdle();
  });

  it("a prompt queued with streamingBehavior resolves when the agent settles, with the queued message's reply", async () => {
    const agent = await newAgent();
    fake.script({ text: "first answer", chunkDelayMs: 20 }, { text: "second answer" });
    const first = agent.prompt("first");
    await fake.waitForRequests(1);
    const queued = await agent.prompt("second", { streamingBehavior: "followUp" });
    expect(queued.disposition).toBe("queued");
    expect(queued.text).toBe("second answer");
    expect((await first).text).toBe("second answer");
    expect(fake.requests).toHaveLength(2);
  });

  it("a run that fails rejects with the provider's error and carries what the run produced", async () => {
    const agent = await newAgent();
    fake.script({ status: 400, errorMessage: "fake says the request is bad" });
    const error = await agent.prompt("fail please").then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AgentRunError);
    const runError = error as AgentRunError;
    expect(runError.message).toContain("fake says the request is bad");
    expect(runError.result.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(runError.result.aborted).toBe(false);
  });

  it("with agent_settled turned off, prompt() and waitForIdle() refuse instead of waiting forever", async () => {
    const agent = await newAgent();
    await agent.send({ type: "set_event_options", agentSettled: false });
    await expect(agent.prompt("hi")).rejects.toThrow("prompt() waits for the agent_settled event, which set_event_options turned off (agentSettled: false)");
    await expect(agent.waitForIdle()).rejects.toThrow("waitForIdle() waits for the agent_settled event");
    expect(fake.requests).toHaveLength(0);
    await agent.send({ type: "set_event_options", agentSettled: true });
    fake.script({ text: "back on" });
    expect((await agent.prompt("hi")).text).toBe("back on");
  });

  it("a prompt sent by hand through send() makes waitForIdle wait for its settle", async () => {
    const agent = await newAgent();
    fake.script({ text: "by hand", chunkDelayMs: 20 });
    const settled: string[] = [];
    agent.subscribe((event) => event.type === "agent_settled" && settled.push("settled"));
    expect(await agent.send({ type: "prompt", message: "hi" })).toMatchObject({ success: true, data: { disposition: "started" } });
    await agent.waitForIdle();
    expect(settled).toEqual(["settled"]);
    await agent.waitForIdle();
    expect(settled).toEqual(["settled"]);
  });

  it("steer and followUp answer their disposition; a refused one rejects with AgentCommandError", async () => {
    const agent = await newAgent();
    expect(await agent.followUp("later")).toBe("queued");
    expect(await agent.steer("now")).toBe("queued");
    // @ts-expect-error a wrong type is refused by the agent too
    await expect(agent.steer(42)).rejects.toThrow("Invalid message: expected string");
  });

  it("dispose() while a prompt waits rejects the prompt with AgentRunError instead of leaving it pending", async () => {
    const agent = await newAgent();
    fake.script({ text: "never finished", stall: 2 });
    const running = agent.prompt("a long one");
    await fake.waitForRequests(1);
    await agent.dispose();
    const error = await running.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(AgentRunError);
    expect((error as AgentRunError).message).toBe("The agent was disposed before the run settled");
    expect((error as AgentRunError).result.aborted).toBe(true);
    await expect(agent.prompt("after")).rejects.toThrow("Agent is shutting down");
  });

  it("waitForIdle() begun while dispose() runs rejects, and leaves no rejection behind for the dispose to raise unheard", async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => void unhandled.push(reason);
    process.on("unhandledRejection", listener);
    try {
      const agent = await newAgent();
      const disposing = agent.dispose();
      await expect(agent.waitForIdle()).rejects.toThrow("Agent is shutting down");
      await disposing;
      // Node reports an unhandled rejection after the microtasks of the turn that made it.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", listener);
    }
  });
});
