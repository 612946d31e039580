/**
 * `atomic serve`: an agent keeps its own model and thinking level when it is unloaded and loaded
 * again, and across a restart (docs/server.md, Limits, idle agents, sessions, restarts): the
 * session's last choice, else what agent_open chose, and the server's `--model` only for an agent
 * that never chose. A second replay model (`replay/deep`, a copy of the demo cassette that
 * reasons) makes a choice visible.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ServerProcess, tempDir, type ServerClient } from "./helpers/server.js";

const DEMO = resolve(import.meta.dirname, "../plugins/provider-replay/cassettes/demo.jsonl");

/** An agent dir with the cassette `replay/deep` beside the bundled `replay/demo`. */
function agentDirWithDeep(): string {
  const agentDir = tempDir("atomic-agent-");
  const [header, ...rest] = readFileSync(DEMO, "utf8").split("\n");
  mkdirSync(join(agentDir, "cassettes"), { recursive: true });
  writeFileSync(join(agentDir, "cassettes", "deep.jsonl"), [JSON.stringify({ ...JSON.parse(header!), name: "deep", reasoning: true }), ...rest].join("\n"));
  return agentDir;
}

async function settled(client: ServerClient, agent: string): Promise<void> {
  const from = client.records.length;
  await client.ok({ type: "prompt", agent, message: "hello" });
  await client.waitFor((r) => r.agent === agent && r.type === "agent_settled", 30_000, from);
}

async function choices(client: ServerClient, agent: string): Promise<{ model: string; thinkingLevel: string }> {
  const state = await client.ok({ type: "get_state", agent });
  return { model: `${state.model.provider}/${state.model.id}`, thinkingLevel: state.thinkingLevel };
}

async function unloaded(client: ServerClient, agent: string): Promise<void> {
  await expect
    .poll(async () => (await client.ok({ type: "agent_list" })).agents.find((entry: { agent: string }) => entry.agent === agent)?.status, { timeout: 20_000 })
    .toBe("notLoaded");
}

describe("atomic serve: an agent's model and thinking level are its own", { timeout: 90_000 }, () => {
  it("an agent unloaded when idle comes back on the model and level it chose, not the server's --model", async () => {
    const server = await ServerProcess.start({ agentDir: agentDirWithDeep(), settings: { serve: { idleUnloadMs: 300 } } });
    const client = await server.connect();
    const { agent } = await client.ok({ type: "agent_open" });
    await client.ok({ type: "set_model", agent, provider: "replay", modelId: "deep" });
    await client.ok({ type: "set_thinking_level", agent, level: "high" });
    await settled(client, agent);
    expect(await choices(client, agent)).toEqual({ model: "replay/deep", thinkingLevel: "high" });
    await client.ok({ type: "detach", agent });
    await unloaded(client, agent);
    expect(await choices(client, agent)).toEqual({ model: "replay/deep", thinkingLevel: "high" });

    // Closed and opened again from its file: the session's own choice, unless agent_open names another.
    const { sessionFile } = await client.ok({ type: "get_state", agent });
    await client.ok({ type: "agent_close", agent });
    const resumed = (await client.ok({ type: "agent_open", resume: sessionFile })).agent;
    expect(await choices(client, resumed)).toEqual({ model: "replay/deep", thinkingLevel: "high" });
    await client.ok({ type: "agent_close", agent: resumed });
    const told = (await client.ok({ type: "agent_open", resume: sessionFile, model: "replay/demo" })).agent;
    expect(await choices(client, told)).toMatchObject({ model: "replay/demo" });
  });

  it("after a restart on another --model: the session's last choice, else agent_open's, else the new server's", async () => {
    const server = await ServerProcess.start({ agentDir: agentDirWithDeep() });
    const client = await server.connect();
    const opened = (await client.ok({ type: "agent_open", model: "replay/deep", thinkingLevel: "medium" })).agent;
    await settled(client, opened);
    // Chosen at agent_open, never prompted: nothing in its session says so, the registry does.
    const quiet = (await client.ok({ type: "agent_open", model: "replay/deep", thinkingLevel: "low" })).agent;
    const changed = (await client.ok({ type: "agent_open", model: "replay/deep" })).agent;
    await client.ok({ type: "set_model", agent: changed, provider: "replay", modelId: "demo" });
    await settled(client, changed);
    // On the server's model: its session answered with replay/demo, and keeps it.
    const plain = (await client.ok({ type: "agent_open" })).agent;
    await settled(client, plain);
    // Never chose, never prompted: the server's model, whichever that is.
    const blank = (await client.ok({ type: "agent_open" })).agent;
    await server.stop();

    const restarted = await ServerProcess.start({ agentDir: server.agentDir, cwd: server.cwd, args: ["--provider", "replay", "--model", "deep"] });
    const next = await restarted.connect();
    expect(await choices(next, opened)).toEqual({ model: "replay/deep", thinkingLevel: "medium" });
    expect(await choices(next, quiet)).toEqual({ model: "replay/deep", thinkingLevel: "low" });
    expect(await choices(next, changed)).toMatchObject({ model: "replay/demo" });
    expect(await choices(next, plain)).toMatchObject({ model: "replay/demo" });
    expect(await choices(next, blank)).toMatchObject({ model: "replay/deep" });
    await restarted.stop();
  });
});
