/**
 * pi-acp (the ACP adapter written for pi, pinned as a dev dependency) pointed at Atomic: the ACP
 * SDK's client drives pi-acp over stdio, pi-acp spawns `pi --mode rpc --no-themes` (Atomic, through
 * PI_ACP_PI_COMMAND) and speaks pi's RPC to it, and the loopback fake LLM is the model. A user of
 * an editor gets initialize, new sessions, a streamed answer with a tool call, cancel, and a
 * second session, exactly as with pi. Side by side with pi 1.6, one read call's tool-call records:
 * the protocol's snapshots by default, pi 1.6's with the `eventOptions` setting (docs/decisions.md).
 */
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { nodeRuntime } from "../scripts/node-runtime.mjs";
import { writeModelsJson } from "./fake-llm/server.js";
import { AcpAgent, type Update } from "./helpers/acp-client.js";
import { PI_16 } from "./helpers/pi-side-by-side.js";
import { pathWithoutPi, piShim, type PiShim } from "./helpers/pi-shim.js";
import { ServerProcess } from "./helpers/server.js";
import { tempDir } from "./helpers/temp.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";
import { viaServer } from "./helpers/via-server.js";

const PI_ACP = createRequire(import.meta.url).resolve("pi-acp");
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };
const fake = useFakeLlm();
const running: { agent: AcpAgent; shim: PiShim; server?: ServerProcess | undefined }[] = [];

afterEach(async () => {
  for (const { agent, shim, server } of running.splice(0)) {
    await agent.close();
    // pi-acp ends its pi processes with SIGTERM as it exits; Atomic's teardown is then over too.
    await shim.settle();
    await server?.stop();
  }
  fake.setDefault({ text: "ok" });
});

const MODEL = { defaultProvider: "fake-openai", defaultModel: "fake-1" };

/**
 * pi-acp with Atomic as its `pi`: Atomic's agent dir serves the fake models, pi-acp's own dirs are
 * empty temp folders. With `pi` (a Node 22 binary): pi 1.6 itself is the `pi`, sharing pi-acp's
 * agent dir (as a user's install does), which then serves the fake models.
 */
async function startPiAcp(pi?: { node: string }, settings: Record<string, unknown> = MODEL): Promise<{ agent: AcpAgent; shim: PiShim }> {
  const agentDir = tempDir("atomic-agent-");
  await writeModelsJson(agentDir, fake.url);
  const piHome = tempDir("atomic-pi-home-");
  const piAgentDir = tempDir("atomic-pi-agent-");
  // pi-acp's own setting: no "startup info" block (it would run `pi --version` and `npm view` for it).
  writeFileSync(join(piAgentDir, "settings.json"), JSON.stringify({ quietStartup: true, ...(pi ? MODEL : {}) }));
  if (pi) await writeModelsJson(piAgentDir, fake.url);
  // Through a server (test/pi-acp.via-server.e2e.test.ts): each `pi` pi-acp starts is a bridge to one agent of it.
  const server = !pi && viaServer() ? await ServerProcess.start({ agentDir, settings, args: [], env: NO_KEYS }) : undefined;
  const shim = pi ? piShim(pi.node, [], join(PI_16, "dist/bundle/cli.js")) : piShim(undefined, server ? ["--connect", `unix:${server.socket}`, "--close-on-exit"] : []);
  const agent = new AcpAgent({
    program: [process.execPath, PI_ACP],
    args: [],
    cwd: tempDir("atomic-cwd-"),
    agentDir,
    settings,
    env: { ...NO_KEYS, PI_ACP_PI_COMMAND: shim.command, PI_CODING_AGENT_DIR: piAgentDir, HOME: piHome, PATH: pathWithoutPi(), PI_OFFLINE: "1", PI_TELEMETRY: "0" },
  });
  running.push({ agent, shim, server });
  return { agent, shim };
}

const toolUpdates = (updates: readonly Update[]) => updates.filter((u) => u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update");

describe("pi-acp 0.0.34 driving Atomic", () => {
  it("initialize, a new session, a streamed prompt with a tool call, cancel, and a second session", async () => {
    const { agent, shim } = await startPiAcp();
    expect(await agent.initialize()).toMatchObject({ protocolVersion: 1, agentInfo: { name: "pi-acp" }, agentCapabilities: { loadSession: true } });

    // session/new: pi-acp starts `pi --mode rpc --no-themes`, reads get_state, models and thinking levels.
    const cwd = tempDir("atomic-cwd-");
    writeFileSync(join(cwd, "hello.txt"), "hello from the file\n");
    const first = await agent.newSession(cwd);
    expect(shim.pids()).toHaveLength(1);
    const model = first.configOptions?.find((option) => option.id === "model");
    expect(model).toMatchObject({ currentValue: "fake-openai/fake-1" });
    // The offline replay model is not offered: it is not in use.
    expect(JSON.stringify(model)).not.toContain("replay/");
    expect(first.configOptions?.find((option) => option.id === "thought_level")).toMatchObject({ currentValue: "medium" });

    // A streamed prompt with a tool call: text chunks, tool_call, its completion with the file's text.
    fake.script({ text: "Reading the file.", toolCalls: [{ id: "call_read", name: "read", args: { path: "hello.txt" } }] }, { text: "It says hello." });
    expect(await agent.prompt(first.sessionId, "what does hello.txt say?")).toEqual({ stopReason: "end_turn" });
    const updates = agent.updates.get(first.sessionId) ?? [];
    expect(agent.text(first.sessionId)).toBe("Reading the file.It says hello.");
    expect(updates.filter((u) => u.sessionUpdate === "agent_message_chunk").length).toBeGreaterThan(2);
    const tool = toolUpdates(updates);
    expect(tool[0]).toMatchObject({ sessionUpdate: "tool_call", toolCallId: "call_read", kind: "read", title: "read" });
    expect(tool.at(-1)).toMatchObject({ sessionUpdate: "tool_call_update", toolCallId: "call_read", status: "completed" });
    expect(JSON.stringify(tool.at(-1))).toContain("hello from the file");
    // pi's four tools are what the model is offered; the context usage pi-acp asks for after the turn arrives.
    expect((fake.requests[0]!.body.tools as { function: { name: string } }[]).map((t) => t.function.name)).toEqual(["read", "edit", "write", "bash"]);
    expect(updates.some((u) => u.sessionUpdate === "usage_update")).toBe(true);

    // Cancel while the answer streams: the turn ends as cancelled, the HTTP request is closed.
    fake.script({ text: "one two three four five six seven eight nine ten", stall: 4 });
    const slow = agent.prompt(first.sessionId, "stream slowly");
    await fake.waitForRequests(3);
    await agent.agent.notify("session/cancel", { sessionId: first.sessionId });
    expect(await slow).toEqual({ stopReason: "cancelled" });
    await fake.waitForDisconnect(2, 5_000);

    // A second session: a new Atomic process, its own session id, and it answers.
    const second = await agent.newSession(tempDir("atomic-cwd-"));
    expect(second.sessionId).not.toBe(first.sessionId);
    expect(shim.pids()).toHaveLength(2);
    fake.script({ text: "Second session here." });
    expect(await agent.prompt(second.sessionId, "hi")).toEqual({ stopReason: "end_turn" });
    expect(agent.text(second.sessionId)).toBe("Second session here.");
  });
});

describe("pi-acp 0.0.34: a read call's tool-call updates, side by side with pi 1.6", () => {
  let node22: string | undefined;
  beforeAll(async () => {
    node22 = await nodeRuntime(22).catch((error: Error) => void console.log(`pi 1.6 needs Node >= 22.19: ${error.message}`));
  }, 300_000);

  /** One prompt whose answer reads a file (its arguments streamed in fragments), as pi-acp reports it to the editor. */
  async function readCallUpdates(pi?: { node: string }, settings?: Record<string, unknown>) {
    const { agent } = await startPiAcp(pi, settings);
    await agent.initialize();
    const cwd = tempDir("atomic-cwd-");
    writeFileSync(join(cwd, "hello.txt"), "hello from the file\n");
    const session = await agent.newSession(cwd);
    fake.script({ text: "Reading.", toolCalls: [{ id: "call_read", name: "read", args: { path: "hello.txt" } }], splitArgs: true }, { text: "Done." });
    expect(await agent.prompt(session.sessionId, "read hello.txt")).toEqual({ stopReason: "end_turn" });
    return toolUpdates(agent.updates.get(session.sessionId) ?? []).map((update) => ({
      sessionUpdate: update.sessionUpdate,
      status: "status" in update ? update.status : undefined,
      rawInput: "rawInput" in update ? update.rawInput : undefined,
    }));
  }
  const pendingUpdates = <U extends { sessionUpdate: string; status: unknown }>(updates: U[]) =>
    updates.filter((u) => u.sessionUpdate === "tool_call_update" && u.status === "pending");

  // The protocol's form (docs/decisions.md): each toolcall_start/toolcall_delta carries the
  // snapshot with the call in it, which pi-acp reports as the call (from its start) and one
  // pending update per event after it; pi 1.6 writes no snapshot, so pi-acp hears of the call at its end.
  it("by default (the protocol's snapshots): announced at its start, one pending update per fragment, then as with pi", async () => {
    if (!node22) return;
    const pi = await readCallUpdates({ node: node22 });
    const atomic = await readCallUpdates();
    expect(pi.filter((update) => update.status === "completed")).toHaveLength(1);
    expect(pendingUpdates(pi)).toEqual([]);
    expect(atomic[0]).toEqual({ sessionUpdate: "tool_call", status: "pending", rawInput: {} });
    const pending = pendingUpdates(atomic);
    expect(pending.length).toBeGreaterThan(1);
    expect(pending.at(-1)?.rawInput).toEqual({ path: "hello.txt" });
    expect(atomic.slice(1 + pending.length)).toEqual(pi.slice(1));
  }, 240_000);

  it('with the eventOptions setting {messageUpdates: "delta"} (pi 1.x\'s form): the same records as with pi', async () => {
    if (!node22) return;
    const pi = await readCallUpdates({ node: node22 });
    const atomic = await readCallUpdates(undefined, { ...MODEL, eventOptions: { messageUpdates: "delta" } });
    expect(pi.filter((update) => update.status === "completed")).toHaveLength(1);
    expect(atomic).toEqual(pi);
  }, 240_000);
});
