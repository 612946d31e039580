/**
 * `--mode acp` end to end: the ACP SDK's own client drives the built CLI over real stdio, with
 * the loopback fake LLM behind it. Text and tool turns stream as session updates, cancel ends a
 * turn as `cancelled`, sessions are independent and load back, config options map to models and
 * thinking levels, extension dialogs become permission requests, and bad input gets JSON-RPC
 * errors.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeModelsJson, type RecordedRequest } from "./fake-llm/server.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";
import { AcpAgent } from "./helpers/acp-client.js";
import { runCli } from "./helpers/run-cli.js";
import { CLI } from "./helpers/rpc-client.js";
import { tempDir } from "./helpers/temp.js";

const UI_DIALOG = resolve(import.meta.dirname, "fixtures/ui-dialog.ts");
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };
const fake = useFakeLlm();
const agents: AcpAgent[] = [];

afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
  fake.setDefault({ text: "ok" });
});

async function start(options: { model?: string; settings?: Record<string, unknown>; args?: string[]; agentDir?: string } = {}): Promise<AcpAgent> {
  const agentDir = options.agentDir ?? tempDir("atomic-agent-");
  await writeModelsJson(agentDir, fake.url);
  const args = options.args ?? ["--mode", "acp", "--model", options.model ?? "fake-openai/fake-1"];
  const agent = new AcpAgent({ args, cwd: tempDir("atomic-cwd-"), agentDir, env: NO_KEYS, ...(options.settings ? { settings: options.settings } : {}) });
  agents.push(agent);
  await agent.initialize();
  return agent;
}

function lastUserText(request: RecordedRequest): string {
  const messages = (request.body?.messages ?? []) as { role: string; content: unknown }[];
  const content = messages.filter((m) => m.role === "user").at(-1)?.content;
  return typeof content === "string" ? content : JSON.stringify(content);
}

describe("ACP: turns", () => {
  it("initialize states the capabilities; a text turn streams thought and message chunks and ends with end_turn", async () => {
    const agentDir = tempDir("atomic-agent-");
    await writeModelsJson(agentDir, fake.url);
    const agent = new AcpAgent({ args: ["--mode", "acp", "--model", "fake-anthropic/fake-1"], cwd: tempDir("atomic-cwd-"), agentDir, env: NO_KEYS });
    agents.push(agent);
    expect(await agent.initialize()).toMatchObject({
      protocolVersion: 1,
      agentCapabilities: { loadSession: true, promptCapabilities: { image: true, embeddedContext: true } },
      agentInfo: { name: "atomic" },
    });
    fake.script({ thinking: "Consider the question", text: "Forty-two." });
    const cwd = tempDir("atomic-cwd-");
    const { sessionId, configOptions } = await agent.newSession(cwd);
    expect(configOptions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: "model",
          category: "model",
          currentValue: "fake-anthropic/fake-1",
          options: expect.arrayContaining([expect.objectContaining({ value: "fake-openai/fake-1" })]),
        }),
        expect.objectContaining({ id: "thinking_level", category: "thought_level", currentValue: "medium" }),
      ]),
    );
    expect(await agent.prompt(sessionId, "What is the answer?")).toEqual({ stopReason: "end_turn" });
    expect(agent.text(sessionId)).toBe("Forty-two.");
    expect(agent.text(sessionId, "agent_thought_chunk")).toBe("Consider the question");
  });

  it("a tool turn: tool_call with kind and title, then tool_call_update in progress and completed with the output", async () => {
    fake.script({ text: "Running it.", toolCalls: [{ id: "call_1", name: "bash", args: { command: "echo from-the-tool" } }] }, { text: "It printed from-the-tool." });
    const agent = await start();
    const { sessionId } = await agent.newSession(tempDir("atomic-cwd-"));
    expect(await agent.prompt(sessionId, "run it")).toEqual({ stopReason: "end_turn" });
    const tool = (agent.updates.get(sessionId) ?? []).filter((u) => u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update");
    expect(tool[0]).toMatchObject({
      sessionUpdate: "tool_call",
      toolCallId: "call_1",
      kind: "execute",
      title: "Run echo from-the-tool",
      status: "pending",
      rawInput: { command: "echo from-the-tool" },
    });
    expect(tool.map((u) => ("status" in u ? u.status : undefined)).filter(Boolean)).toEqual(["pending", "in_progress", "completed"]);
    expect(JSON.stringify(tool.at(-1))).toContain("from-the-tool");
    expect(agent.text(sessionId)).toBe("Running it.It printed from-the-tool.");
  });

  it("session/cancel ends the turn as cancelled (the HTTP request is closed); the session takes the next prompt", async () => {
    fake.script({ text: "one two three four five six seven eight nine ten", stall: 4 }, { text: "Back again." });
    const agent = await start();
    const { sessionId } = await agent.newSession(tempDir("atomic-cwd-"));
    const turn = agent.prompt(sessionId, "stream slowly");
    await fake.waitForRequests(1);
    await agent.agent.notify("session/cancel", { sessionId });
    expect(await turn).toEqual({ stopReason: "cancelled" });
    await fake.waitForDisconnect(0, 5_000);
    expect(await agent.prompt(sessionId, "again")).toEqual({ stopReason: "end_turn" });
    expect(agent.text(sessionId)).toContain("Back again.");
  });

  it("session/close or session/load of a session mid-prompt ends its turn as cancelled", async () => {
    fake.script({ text: "one two three four five six seven eight nine ten", stall: 4 }, { text: "one two three four five six seven eight nine ten", stall: 4 });
    const agent = await start();
    const cwd = tempDir("atomic-cwd-");
    const closed = await agent.newSession(cwd);
    const first = agent.prompt(closed.sessionId, "stream slowly");
    await fake.waitForRequests(1);
    await agent.agent.request("session/close", { sessionId: closed.sessionId });
    expect(await first).toEqual({ stopReason: "cancelled" });
    const { sessionId } = await agent.newSession(cwd);
    const second = agent.prompt(sessionId, "stream slowly");
    await fake.waitForRequests(2);
    await agent.agent.request("session/load", { sessionId, cwd, mcpServers: [] });
    expect(await second).toEqual({ stopReason: "cancelled" });
  });

  it("a failed run is a JSON-RPC error with the provider's message; a refusal is a stop reason", async () => {
    const agent = await start({ model: "fake-anthropic/fake-1", settings: { retry: { enabled: false } } });
    const { sessionId } = await agent.newSession(tempDir("atomic-cwd-"));
    fake.script({ status: 400, errorMessage: "prompt is too long for this model" });
    await expect(agent.prompt(sessionId, "hi")).rejects.toMatchObject({ code: -32603, message: expect.stringContaining("prompt is too long for this model") });
    fake.script({ text: "I can't", stop: "error" });
    expect(await agent.prompt(sessionId, "something bad")).toEqual({ stopReason: "refusal" });
  });
});

describe("ACP: sessions", () => {
  it("two sessions in one process are independent, each with its own session file; session/load replays one in a new process", async () => {
    fake.setDefault((request) => ({ text: `echo: ${lastUserText(request)}` }));
    const agentDir = tempDir("atomic-agent-");
    const agent = await start({ agentDir });
    const [cwdA, cwdB] = [tempDir("atomic-cwd-"), tempDir("atomic-cwd-")];
    const [a, b] = [await agent.newSession(cwdA), await agent.newSession(cwdB)];
    expect(a.sessionId).not.toBe(b.sessionId);
    await Promise.all([agent.prompt(a.sessionId, "from a"), agent.prompt(b.sessionId, "from b")]);
    expect([agent.text(a.sessionId), agent.text(b.sessionId)]).toEqual(["echo: from a", "echo: from b"]);
    // Session files are appended through an async queue: read them once the process has flushed and exited.
    await agent.close();
    const files = readdirSync(join(agentDir, "sessions"), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith(".jsonl"));
    expect(files.filter((f) => f.endsWith(`_${a.sessionId}.jsonl`))).toHaveLength(1);
    expect(files.filter((f) => f.endsWith(`_${b.sessionId}.jsonl`))).toHaveLength(1);

    const again = await start({ agentDir });
    const listed = await again.agent.request("session/list", { cwd: cwdA });
    expect(listed.sessions).toEqual([expect.objectContaining({ sessionId: a.sessionId, cwd: cwdA, title: "from a" })]);
    expect((await again.agent.request("session/list", {})).sessions.map((s) => s.sessionId).sort()).toEqual([a.sessionId, b.sessionId].sort());
    expect(await again.agent.request("session/load", { sessionId: a.sessionId, cwd: cwdA, mcpServers: [] })).toMatchObject({ configOptions: expect.any(Array) });
    expect(again.text(a.sessionId, "user_message_chunk")).toBe("from a");
    expect(again.text(a.sessionId)).toBe("echo: from a");
    expect(await again.prompt(a.sessionId, "and now")).toEqual({ stopReason: "end_turn" });
    expect((fake.requests.at(-1)!.body.messages as { role: string }[]).filter((m) => m.role === "user")).toHaveLength(2);
    await expect(again.agent.request("session/load", { sessionId: "no-such-session", cwd: cwdA, mcpServers: [] })).rejects.toMatchObject({ code: -32002 });
  });

  it("requests read before input ends are answered before the agent exits (initialize, then session/new with EOF right after)", async () => {
    const cwd = tempDir("atomic-cwd-");
    const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } };
    const first = await runCli(["--mode", "acp", "--no-session"], { cwd, agentDir: tempDir("atomic-acp-eof-"), input: `${JSON.stringify(initialize)}\n` });
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout.split("\n")[0]!)).toMatchObject({ id: 1, result: { protocolVersion: 1 } });

    // Raw lines: the client sends session/new after initialize's answer, then closes its end at once.
    const child = spawn(process.execPath, [CLI, "--mode", "acp", "--no-session"], {
      cwd,
      env: { ...process.env, ...NO_KEYS, ATOMIC_CODING_AGENT_DIR: tempDir("atomic-acp-eof-") },
    });
    let stdout = "";
    const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('"id":1,')) child.stdin.end(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd, mcpServers: [] } })}\n`);
    });
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
    expect(await exited).toBe(0);
    const answers = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { id?: number; result?: unknown });
    expect(answers.find((answer) => answer.id === 2)?.result).toMatchObject({ sessionId: expect.any(String) });
  });

  it('settings "mode": "acp" serves ACP without --mode', async () => {
    const agent = await start({ args: ["--model", "fake-openai/fake-1", "--no-session"], settings: { mode: "acp" } });
    const { sessionId } = await agent.newSession(tempDir("atomic-cwd-"));
    expect(await agent.prompt(sessionId, "hi")).toEqual({ stopReason: "end_turn" });
    expect(agent.text(sessionId)).toBe("ok");
  });

  it("config options set the thinking level and the model", async () => {
    const agent = await start();
    const { sessionId } = await agent.newSession(tempDir("atomic-cwd-"));
    const thinking = await agent.agent.request("session/set_config_option", { sessionId, configId: "thinking_level", value: "high" });
    expect(thinking.configOptions.find((o) => o.id === "thinking_level")).toMatchObject({ currentValue: "high" });
    const model = await agent.agent.request("session/set_config_option", { sessionId, configId: "model", value: "fake-google/fake-1" });
    expect(model.configOptions.find((o) => o.id === "model")).toMatchObject({ currentValue: "fake-google/fake-1" });
    await agent.prompt(sessionId, "hi");
    expect(fake.requests.at(-1)!.format).toBe("google");
    await expect(agent.agent.request("session/set_config_option", { sessionId, configId: "colour", value: "red" })).rejects.toMatchObject({ code: -32602 });
    await expect(agent.agent.request("session/set_config_option", { sessionId, configId: "model", value: "nope/x" })).rejects.toMatchObject({ code: -32602 });
  });
});

describe("ACP: permissions and bad input", () => {
  it("an extension's confirm and select dialogs become session/request_permission on the tool call", async () => {
    // ls is offered only when named (pi's defaults are read, bash, edit, write).
    const agent = await start({ settings: { plugins: [UI_DIALOG], tools: ["+ls"] } });
    const { sessionId } = await agent.newSession(tempDir("atomic-cwd-"));
    fake.script({ toolCalls: [{ id: "call_ok", name: "bash", args: { command: "echo allowed-run" } }] }, { text: "done" });
    agent.policy = () => ({ outcome: { outcome: "selected", optionId: "allow" } });
    await agent.prompt(sessionId, "run");
    expect(agent.permissions[0]).toMatchObject({
      sessionId,
      toolCall: { toolCallId: "call_ok", title: "Run this command?" },
      options: [expect.objectContaining({ kind: "allow_once" }), expect.objectContaining({ kind: "reject_once" })],
    });
    expect(JSON.stringify(agent.updates.get(sessionId))).toContain("allowed-run\\n");

    fake.script({ toolCalls: [{ id: "call_no", name: "bash", args: { command: "echo denied-run" } }] }, { text: "done" });
    agent.policy = () => ({ outcome: { outcome: "selected", optionId: "reject" } });
    await agent.prompt(sessionId, "run again");
    const denied = (agent.updates.get(sessionId) ?? []).filter((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "call_no").at(-1);
    expect(denied).toMatchObject({ status: "failed" });

    fake.script({ toolCalls: [{ id: "call_ls", name: "ls", args: {} }] }, { text: "done" });
    agent.policy = (request) => ({ outcome: { outcome: "selected", optionId: request.options.find((o) => o.name === "Allow")!.optionId } });
    await agent.prompt(sessionId, "list");
    expect(agent.permissions.at(-1)!.options.map((o) => o.name)).toEqual(["Allow", "Block"]);
    expect((agent.updates.get(sessionId) ?? []).filter((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "call_ls").at(-1)).toMatchObject({ status: "completed" });
  });

  it("a pi extension's confirm (loaded with -e) becomes session/request_permission too", async () => {
    const extension = join(tempDir("atomic-ext-"), "gate.ts");
    writeFileSync(
      extension,
      `export default function (pi) {\n  pi.on("tool_call", async (event, ctx) => {\n    if (event.toolName !== "bash") return;\n    const ok = await ctx.ui.confirm("Gate", "Run " + event.input.command + "?");\n    if (!ok) return { block: true, reason: "Denied by the gate" };\n  });\n}\n`,
    );
    const agent = await start({ args: ["--mode", "acp", "--model", "fake-openai/fake-1", "-e", extension] });
    const { sessionId } = await agent.newSession(tempDir("atomic-cwd-"));
    fake.script({ toolCalls: [{ id: "call_gate", name: "bash", args: { command: "echo gated-run" } }] }, { text: "done" });
    agent.policy = (request) => ({ outcome: { outcome: "selected", optionId: request.options.find((o) => o.kind === "reject_once")!.optionId } });
    await agent.prompt(sessionId, "run");
    expect(agent.permissions[0]).toMatchObject({ sessionId, toolCall: { toolCallId: "call_gate" } });
    const update = (agent.updates.get(sessionId) ?? []).filter((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "call_gate").at(-1);
    expect(update).toMatchObject({ status: "failed" });
    expect(JSON.stringify(agent.updates.get(sessionId))).not.toContain("gated-run\\n");
  });

  it("unknown methods, wrong params, unknown or closed sessions and relative folders are JSON-RPC errors", async () => {
    const agent = await start();
    await expect(agent.agent.request("session/teleport", {})).rejects.toMatchObject({ code: -32601 });
    await expect(agent.agent.request("session/prompt", { sessionId: "x" } as never)).rejects.toMatchObject({ code: -32602 });
    await expect(agent.prompt("no-such-session", "hi")).rejects.toMatchObject({
      code: -32002,
      message: "Session not found: no-such-session",
      data: { sessionId: "no-such-session" },
    });
    await expect(agent.newSession("relative/path")).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("absolute") });
    const audio = agent.agent.request("session/prompt", {
      sessionId: (await agent.newSession(tempDir("atomic-cwd-"))).sessionId,
      prompt: [{ type: "audio", data: "AAAA", mimeType: "audio/wav" }],
    });
    await expect(audio).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("Audio prompts are not supported") });
    const badMeta = agent.agent.request("session/new", { cwd: tempDir("atomic-cwd-"), mcpServers: [], _meta: { atomic: { sandbox: "bogus-mode" } } });
    await expect(badMeta).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("Invalid params: Invalid _meta.atomic.sandbox.mode: expected") });
    const { sessionId } = await agent.newSession(tempDir("atomic-cwd-"));
    await agent.agent.request("session/close", { sessionId });
    await expect(agent.prompt(sessionId, "hi")).rejects.toMatchObject({ code: -32002 });
    // The connection is still fine after all that.
    const next = await agent.newSession(tempDir("atomic-cwd-"));
    expect(await agent.prompt(next.sessionId, "hi")).toEqual({ stopReason: "end_turn" });
  });

  it("stdin EOF closes every session and exits 0, leaving session files flushed", async () => {
    const agentDir = tempDir("atomic-agent-");
    const agent = await start({ agentDir });
    const { sessionId } = await agent.newSession(tempDir("atomic-cwd-"));
    await agent.prompt(sessionId, "keep me");
    expect(await agent.close()).toBe(0);
    const file = readdirSync(join(agentDir, "sessions"), { recursive: true })
      .map(String)
      .find((f) => f.endsWith(`_${sessionId}.jsonl`));
    expect(file && existsSync(join(agentDir, "sessions", file))).toBeTruthy();
  });
});
