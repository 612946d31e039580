/**
 * The typed client (`atomic-agent/client`) against the built CLI and the loopback fake LLM: pi's
 * methods, waiting for a settled agent rather than the first `agent_end`, the typed public
 * `send`, bash by request id, event options, and a clear failure when the agent cannot start.
 */
import { afterEach, describe, expect, it } from "vitest";
import { RpcClient } from "../client/index.js";
import { writeModelsJson } from "./fake-llm/server.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";
import { CLI } from "./helpers/rpc-client.js";
import { ServerProcess } from "./helpers/server.js";
import { viaServer } from "./helpers/via-server.js";
import { tempDir } from "./helpers/temp.js";
import { NODE } from "./helpers/node.js";

const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };
const fake = useFakeLlm();
const clients: RpcClient[] = [];
const servers: ServerProcess[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.stop()));
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

async function started(options: { settings?: object; args?: string[] } = {}): Promise<RpcClient> {
  const agentDir = tempDir("atomic-agent-");
  await writeModelsJson(agentDir, fake.url);
  if (options.settings) (await import("node:fs")).writeFileSync(`${agentDir}/settings.json`, JSON.stringify(options.settings));
  // Through a server (test/client.via-server.e2e.test.ts): the same client, given `--connect` as more arguments.
  const server = viaServer() ? await ServerProcess.start({ agentDir, args: options.args ?? [], env: NO_KEYS }) : undefined;
  if (server) servers.push(server);
  const client = new RpcClient({
    cliPath: CLI,
    nodePath: NODE,
    cwd: tempDir("atomic-cwd-"),
    env: { ...NO_KEYS, ATOMIC_CODING_AGENT_DIR: agentDir },
    model: "fake-openai/fake-1",
    args: ["--no-session", ...(server ? ["--connect", `unix:${server.socket}`, "--close-on-exit"] : (options.args ?? []))],
  });
  clients.push(client);
  await client.start();
  return client;
}

describe("RpcClient", () => {
  it("promptAndWait resolves with the prompt's events once settled; pi's getters work", async () => {
    fake.script({ text: "Hello there." });
    const client = await started();
    const events = await client.promptAndWait("hi");
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(["agent_start", "message_update", "agent_end"]));
    expect(events.some((e) => (e.type as string) === "agent_settled")).toBe(false);
    expect(await client.getLastAssistantText()).toBe("Hello there.");
    expect((await client.getState()).messageCount).toBe(2);
    expect((await client.getMessages()).map((m) => m.role)).toEqual(["user", "assistant"]);
    expect((await client.getAvailableModels()).map((m) => `${m.provider}/${m.id}`)).toContain("fake-openai/fake-1");
    expect(await client.getEntries()).toMatchObject({ entries: expect.any(Array) });
    await client.waitForIdle(1_000);
  });

  it("waitForIdle waits past a retried run and a follow-up, not for the first agent_end", async () => {
    fake.script({ status: 429, errorMessage: "Slow down" }, { text: "after retry", chunkDelayMs: 20 }, { text: "the follow-up" });
    const client = await started({ settings: { retry: { baseDelayMs: 10 } } });
    const agentEnds: number[] = [];
    client.onEvent((event) => void (event.type === "agent_end" && agentEnds.push(Date.now())));
    await client.prompt("first");
    await client.followUp("and then this");
    await client.waitForIdle(20_000);
    expect(agentEnds.length).toBeGreaterThanOrEqual(2);
    expect(await client.getLastAssistantText()).toBe("the follow-up");
    expect(fake.requests).toHaveLength(3);
  });

  it("prompt, steer and followUp return pi 1.x's disposition; clearQueue returns what was queued; promptAndWait returns for a handled command", async () => {
    const extension = `${tempDir("atomic-ext-")}/hello.js`;
    (await import("node:fs")).writeFileSync(extension, `export default function (pi) { pi.registerCommand("hello", { handler: async (_args, ctx) => ctx.ui.notify("hi") }); }\n`);
    const client = await started({ args: ["-e", extension] });
    fake.script({ text: "one two three four five six", chunkDelayMs: 80 });
    const streaming = new Promise<void>((resolve) => {
      const stop = client.onEvent((event) => void (event.type === "message_update" && (stop(), resolve())));
    });
    expect(await client.prompt("start")).toBe("started");
    await streaming;
    expect(await client.steer("left")).toBe("queued");
    expect(await client.followUp("later")).toBe("queued");
    expect(await client.prompt("queued one", undefined, "followUp")).toBe("queued");
    expect(await client.clearQueue()).toEqual({ steering: ["left"], followUp: ["later", "queued one"] });
    await client.waitForIdle(20_000);
    expect(await client.prompt("/hello")).toBe("handled");
    // No run: nothing to wait for (pi's promptAndWait would wait for an agent_settled that never comes).
    expect((await client.promptAndWait("/hello", undefined, 5_000)).map((e) => e.type)).toEqual(["extension_ui_request"]);
  });

  it("send is typed per command and never throws for a failed one; convenience methods do", async () => {
    const client = await started();
    const state = await client.send({ type: "get_state" });
    expect(state).toMatchObject({ type: "response", command: "get_state", success: true });
    expect(await client.send({ type: "teleport" })).toMatchObject({ success: false, error: "Unknown command: teleport" });
    await expect(client.setModel("nope", "x")).rejects.toThrow("Model not found: nope/x");
    expect(await client.setEventOptions({ messageUpdates: "delta" })).toEqual({ messageUpdates: "delta", agentSettled: true });
    fake.script({ text: "one two three" });
    const events = await client.promptAndWait("deltas please");
    const update = events.find((e) => e.type === "message_update")!;
    expect("message" in update).toBe(false);
  });

  it("bash streams under its request id, which abortBash(requestId) cancels", async () => {
    const client = await started();
    const ids = new Set<unknown>();
    client.onEvent((event) => void (event.type === "bash_execution_update" && ids.add(event.id)));
    const slowStarted = new Promise<void>((resolve) => {
      const stop = client.onEvent((event) => {
        if (event.type === "bash_execution_update" && event.id === "slow-1") stop(), resolve();
      });
    });
    const slow = client.bash("echo started; sleep 20", { requestId: "slow-1" });
    expect(await client.bash("echo quick")).toMatchObject({ output: "quick\n", exitCode: 0 });
    await slowStarted;
    await client.abortBash("slow-1");
    expect(await slow).toMatchObject({ cancelled: true });
    expect(ids.has("slow-1")).toBe(true);
  });

  it("a start that cannot serve rejects with the agent's stderr; stop is graceful and repeatable", async () => {
    const bad = new RpcClient({ cliPath: CLI, nodePath: NODE, cwd: tempDir("atomic-cwd-"), env: { ATOMIC_CODING_AGENT_DIR: tempDir("atomic-agent-") }, args: ["--no-such-flag"] });
    clients.push(bad);
    await expect(bad.start()).rejects.toThrow(/Unknown option: --no-such-flag/);
    const client = await started();
    await client.stop();
    await client.stop();
    await expect(client.getState()).rejects.toThrow(/not started|not running/);
  });

  it("a cwd that does not exist, or a Node binary that does not, rejects start() instead of crashing the caller", async () => {
    const missing = `${tempDir("atomic-cwd-")}/no-such-folder`;
    const noFolder = new RpcClient({ cliPath: CLI, nodePath: NODE, cwd: missing, env: { ATOMIC_CODING_AGENT_DIR: tempDir("atomic-agent-") } });
    await expect(noFolder.start()).rejects.toThrow(`Cannot start the agent in ${missing}: the folder does not exist`);
    const noNode = new RpcClient({ cliPath: CLI, nodePath: `${missing}/node`, cwd: tempDir("atomic-cwd-"), env: { ATOMIC_CODING_AGENT_DIR: tempDir("atomic-agent-") } });
    await expect(noNode.start()).rejects.toThrow(`Cannot start the agent with ${missing}/node: spawn ${missing}/node ENOENT`);
    await expect(noNode.getState()).rejects.toThrow(/not started/);
    // Both can be started again once the cause is fixed (nothing half-open was left behind).
    await expect(noFolder.stop()).resolves.toBeUndefined();
  });
});
