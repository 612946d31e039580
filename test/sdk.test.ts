/**
 * The in-process SDK (`atomic-agent/sdk`) against the loopback fake LLM over real HTTP: the same
 * commands, responses and events as RPC, nothing written to the embedding process's stdout, no
 * signal handlers, and two agents in one process that share nothing.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAgent, type Agent, type AgentEvent } from "../sdk/index.js";
import { silentLogger } from "../kernel/index.js";
import { writeModelsJson, type RecordedRequest } from "./fake-llm/server.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";
import { tempDir } from "./helpers/temp.js";

const fake = useFakeLlm();
const agents: Agent[] = [];
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };

/** The text of the last user message of a Chat Completions request. */
function lastUserText(request: RecordedRequest): string {
  const messages = (request.body?.messages ?? []) as { role: string; content: unknown }[];
  const content = messages.filter((m) => m.role === "user").at(-1)?.content;
  return typeof content === "string" ? content : JSON.stringify(content);
}

beforeAll(() => {
  // Deterministic whatever the interleaving: every answer echoes the question.
  fake.setDefault((request) => ({ text: `echo: ${lastUserText(request)}` }));
});
afterAll(async () => {
  await Promise.all(agents.map((agent) => agent.dispose()));
});

async function agentIn(agentDir: string, options: Parameters<typeof createAgent>[0] = {}): Promise<Agent> {
  await writeModelsJson(agentDir, fake.url);
  const agent = await createAgent({ cwd: agentDir, agentDir, model: "fake-openai/fake-1", env: { ...process.env, ...NO_KEYS }, log: silentLogger, ...options });
  agents.push(agent);
  return agent;
}

/** Sends a prompt and resolves with the events up to the run's agent_end. */
async function promptAndCollect(agent: Agent, message: string): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  let unsubscribe = () => {};
  const ended = new Promise<void>((resolve) => {
    unsubscribe = agent.subscribe((event) => {
      events.push(event);
      if (event.type === "agent_end") resolve();
    });
  });
  const response = await agent.send({ type: "prompt", message });
  expect(response).toEqual({ type: "response", command: "prompt", success: true, data: { disposition: "started" } });
  await ended;
  unsubscribe();
  return events;
}

describe("createAgent", () => {
  it("answers commands with RPC's response objects and streams RPC's events", async () => {
    const agent = await agentIn(tempDir("atomic-sdk-"), { session: false });
    const events = await promptAndCollect(agent, "hello");
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(["agent_start", "turn_start", "message_start", "message_update", "message_end", "turn_end", "agent_end"]));
    expect(await agent.send({ type: "get_last_assistant_text", id: 7 })).toEqual({
      id: 7,
      type: "response",
      command: "get_last_assistant_text",
      success: true,
      data: { text: "echo: hello" },
    });
    const state = await agent.send({ type: "get_state" });
    if (!state?.success) throw new Error("get_state failed");
    expect(state.data.sessionFile).toBeUndefined();
  });

  it("a response is the caller's own copy: changing what get_messages returned leaves the agent's context as it was", async () => {
    const agent = await agentIn(tempDir("atomic-sdk-"), { session: false });
    await promptAndCollect(agent, "hello");
    const returned = await agent.getMessages();
    const before = structuredClone(returned);
    (returned[0] as { content: unknown }).content = "changed";
    returned.length = 0;
    const response = await agent.send({ type: "get_messages" });
    if (!response?.success) throw new Error("get_messages failed");
    response.data.messages.push(before[0]!);
    expect(await agent.getMessages()).toEqual(before);
    expect(await agent.getLastAssistantText()).toBe("echo: hello");
  });

  it("a failed command resolves with RPC's error response; a reply resolves to undefined", async () => {
    const agent = await agentIn(tempDir("atomic-sdk-"), { session: false });
    expect(await agent.send({ type: "no_such_command", id: "x" })).toEqual({
      id: "x",
      type: "response",
      command: "no_such_command",
      success: false,
      error: "Unknown command: no_such_command",
    });
    // @ts-expect-error a wrong field type is refused by the types too
    expect(await agent.send({ type: "prompt", message: 42 })).toEqual({ type: "response", command: "prompt", success: false, error: "Invalid message: expected string" });
    expect(await agent.send({ type: "set_model", provider: "nope", modelId: "x" })).toMatchObject({ success: false, error: "Model not found: nope/x" });
    expect(await agent.send({ type: "extension_ui_response", id: "uuid-1", cancelled: true })).toBeUndefined();
  });

  it("subscribe refuses a listener that is not a function, at the call rather than at every event", async () => {
    const agent = await agentIn(tempDir("atomic-sdk-"), { session: false });
    // @ts-expect-error a wrong listener is refused by the types too
    expect(() => agent.subscribe(5)).toThrow(new TypeError("subscribe() takes a listener function (event) => void, got number"));
  });

  it("dispose twice is one teardown; a command after it is refused like RPC after EOF", async () => {
    const agent = await agentIn(tempDir("atomic-sdk-"), { session: false });
    const first = agent.dispose();
    expect(agent.dispose()).toBe(first);
    await first;
    expect(await agent.send({ type: "get_state", id: 1 })).toEqual({ id: 1, type: "response", command: "get_state", success: false, error: "Agent is shutting down" });
  });

  it("an agent dir that cannot be used is one clear error", async () => {
    const file = join(tempDir("atomic-sdk-"), "not-a-dir");
    writeFileSync(file, "x");
    await expect(createAgent({ agentDir: file, log: silentLogger })).rejects.toThrow(`Cannot use agent dir ${file}: not a folder`);
    await expect(createAgent({ agentDir: join(file, "sub"), log: silentLogger })).rejects.toThrow(`Cannot use agent dir ${join(file, "sub")}:`);
  });

  it("a working folder that does not exist fails at creation, not in a later tool result", async () => {
    const root = tempDir("atomic-sdk-");
    const missing = join(root, "no-such-folder");
    await expect(createAgent({ cwd: missing, agentDir: tempDir("atomic-agent-"), log: silentLogger })).rejects.toThrow(`Cannot use cwd ${missing}: the folder does not exist`);
    const file = join(root, "a-file");
    writeFileSync(file, "x");
    await expect(createAgent({ cwd: file, agentDir: tempDir("atomic-agent-"), log: silentLogger })).rejects.toThrow(`Cannot use cwd ${file}: not a folder`);
  });

  it("leaves the process alone: no stdout writes, no signal handlers, no chdir", async () => {
    const signals = ["SIGINT", "SIGTERM", "SIGHUP"].map((signal) => process.listenerCount(signal));
    const cwd = process.cwd();
    const write = vi.spyOn(process.stdout, "write");
    try {
      const agent = await agentIn(tempDir("atomic-sdk-"), { session: false });
      await promptAndCollect(agent, "quiet");
      await agent.send({ type: "bash", command: "echo from-bash" });
      await agent.dispose();
      expect(write).not.toHaveBeenCalled();
    } finally {
      write.mockRestore();
    }
    expect(["SIGINT", "SIGTERM", "SIGHUP"].map((signal) => process.listenerCount(signal))).toEqual(signals);
    expect(process.cwd()).toBe(cwd);
  });

  it("two agents in one process and one agent dir share no session, model or queue", async () => {
    const agentDir = tempDir("atomic-sdk-");
    const [a, b] = [await agentIn(agentDir), await agentIn(agentDir)];
    await Promise.all([promptAndCollect(a, "from a"), promptAndCollect(b, "from b")]);
    expect(await a.send({ type: "get_last_assistant_text" })).toMatchObject({ data: { text: "echo: from a" } });
    expect(await b.send({ type: "get_last_assistant_text" })).toMatchObject({ data: { text: "echo: from b" } });

    await a.send({ type: "set_model", provider: "fake-anthropic", modelId: "fake-1" });
    await a.send({ type: "steer", message: "queued in a" });
    const [stateA, stateB] = [await a.send({ type: "get_state" }), await b.send({ type: "get_state" })];
    if (!stateA?.success || !stateB?.success) throw new Error("get_state failed");
    expect([stateA.data.model?.provider, stateB.data.model?.provider]).toEqual(["fake-anthropic", "fake-openai"]);
    expect([stateA.data.pendingMessageCount, stateB.data.pendingMessageCount]).toEqual([1, 0]);
    expect(stateA.data.sessionId).not.toBe(stateB.data.sessionId);
    expect(stateA.data.sessionFile).not.toBe(stateB.data.sessionFile);
    for (const [state, own, other] of [
      [stateA, "from a", "from b"],
      [stateB, "from b", "from a"],
    ] as const) {
      expect(existsSync(state.data.sessionFile!)).toBe(true);
      const text = readFileSync(state.data.sessionFile!, "utf8");
      expect(text).toContain(own);
      expect(text).not.toContain(other);
    }
  });

  it("two agents in one process never hold one session file: the second is refused until the first lets it go", async () => {
    const agentDir = tempDir("atomic-sdk-");
    const [a, b] = [await agentIn(agentDir), await agentIn(agentDir)];
    await promptAndCollect(a, "from a");
    const state = await a.send({ type: "get_state" });
    if (!state?.success) throw new Error("get_state failed");
    const file = state.data.sessionFile!;
    await a.send({ type: "get_state" });
    const refused = await b.send({ type: "switch_session", sessionPath: file });
    expect(refused).toMatchObject({ success: false });
    expect(refused.success ? "" : refused.error).toContain(`Session file ${file} is in use by another agent of this process (pid ${process.pid}`);
    // The same agent may switch to its own file.
    expect(await a.send({ type: "switch_session", sessionPath: file })).toMatchObject({ success: true });
    await a.dispose();
    expect(await b.send({ type: "switch_session", sessionPath: file })).toMatchObject({ success: true, data: { cancelled: false } });
  });
});
