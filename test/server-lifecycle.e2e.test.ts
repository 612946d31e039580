/**
 * `atomic serve`: limits, idle unload and transparent reload, one session file per agent, the
 * registry across a restart, and shutdown (issue 34; docs/decisions.md, Limits, Persistence,
 * Shutdown). Real child processes and real unix sockets throughout.
 */
import { readFileSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Record_ } from "./helpers/rpc-client.js";
import { ServerProcess, type ServerClient } from "./helpers/server.js";

async function settled(client: ServerClient, agent: string, message = "hello"): Promise<void> {
  const from = client.records.length;
  await client.ok({ type: "prompt", agent, message });
  await client.waitFor((r) => r.agent === agent && r.type === "agent_settled", 30_000, from);
}

async function statusOf(client: ServerClient, agent: string): Promise<string> {
  const { agents } = await client.ok({ type: "agent_list" });
  return agents.find((entry: { agent: string }) => entry.agent === agent)?.status;
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let tries = 0; tries < 400; tries++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting until ${what}`);
}

describe("atomic serve: lifecycle", { timeout: 90_000 }, () => {
  it("maxAgents: one more is limit_reached until one closes; maxConnections: one error record, then closed", async () => {
    const server = await ServerProcess.start({ settings: { serve: { maxAgents: 2, maxConnections: 2 } } });
    const client = await server.connect();
    const first = await client.ok({ type: "agent_open" });
    await client.ok({ type: "agent_open" });
    expect(await client.request({ type: "agent_open" })).toMatchObject({ success: false, code: "limit_reached", error: expect.stringContaining("maxAgents") });
    expect(await client.ok({ type: "agent_close", agent: first.agent })).toEqual({ agent: first.agent });
    expect(client.records.some((r) => r.type === "agent_closed" && r.agent === first.agent)).toBe(true);
    expect(await client.request({ type: "get_state", agent: first.agent })).toMatchObject({ success: false, code: "unknown_agent" });
    await client.ok({ type: "agent_open" });

    await server.connect();
    const refused = await server.connect();
    await refused.closed;
    expect(refused.records).toEqual([{ type: "response", command: "connect", success: false, error: expect.stringContaining("maxConnections"), code: "limit_reached" }]);
  });

  it("an idle agent is unloaded after idleUnloadMs and loads again on use: same handle, same session, seq goes on", async () => {
    const server = await ServerProcess.start({ settings: { serve: { idleUnloadMs: 200 } } });
    const owner = await server.connect();
    const opened = await owner.ok({ type: "agent_open" });
    const memory = await owner.ok({ type: "agent_open", noSession: true });
    await settled(owner, opened.agent);
    const before = await owner.ok({ type: "get_messages", agent: opened.agent });
    const lastSeq = owner.events(opened.agent).at(-1)!.seq as number;
    await owner.close();

    const watcher = await server.connect();
    await until(async () => (await statusOf(watcher, opened.agent)) === "notLoaded", "the agent is unloaded");
    expect((await watcher.ok({ type: "server_info" })).counts).toMatchObject({ agents: 2, loaded: 1 });
    // An agent in memory could not come back: it stays loaded.
    expect(await statusOf(watcher, memory.agent)).toBe("idle");

    expect(await watcher.ok({ type: "get_messages", agent: opened.agent })).toEqual(before);
    expect(await watcher.ok({ type: "get_state", agent: opened.agent })).toMatchObject({ sessionId: opened.sessionId, sessionFile: opened.sessionFile });
    const attached = await watcher.ok({ type: "attach", agent: opened.agent, after: lastSeq });
    expect(attached).toMatchObject({ gap: false, seq: expect.any(Number) });
    expect(attached.seq).toBeGreaterThanOrEqual(lastSeq);
    await settled(watcher, opened.agent, "again");
    const seqs = watcher.events(opened.agent).map((r) => r.seq as number);
    expect(seqs).toEqual(seqs.map((_, i) => lastSeq + 1 + i));
  });

  it("two agents never hold one session file: session_in_use by file, by id, and on switch_session", async () => {
    const server = await ServerProcess.start();
    const client = await server.connect();
    const one = await client.ok({ type: "agent_open" });
    await settled(client, one.agent);
    const expected = { success: false, code: "session_in_use", error: `Session ${one.sessionFile} is already open in agent ${one.agent}` };
    expect(await client.request({ type: "agent_open", resume: one.sessionFile })).toMatchObject(expected);
    expect(await client.request({ type: "agent_open", resume: one.sessionId })).toMatchObject(expected);
    const two = await client.ok({ type: "agent_open" });
    expect(await client.request({ type: "switch_session", agent: two.agent, sessionPath: one.sessionFile })).toMatchObject({ ...expected, agent: two.agent });
    await client.ok({ type: "agent_close", agent: one.agent });
    const again = await client.ok({ type: "agent_open", resume: one.sessionId });
    expect(again).toMatchObject({ sessionId: one.sessionId, sessionFile: one.sessionFile });
    expect((await client.ok({ type: "get_messages", agent: again.agent })).messages.length).toBeGreaterThan(1);
  });

  it("the registry survives a restart: every agent listed notLoaded under its handle, old cursors are a gap", async () => {
    const server = await ServerProcess.start();
    const client = await server.connect();
    const first = await client.ok({ type: "agent_open", name: "worked" });
    const second = await client.ok({ type: "agent_open" });
    await settled(client, first.agent);
    const messages = await client.ok({ type: "get_messages", agent: first.agent });
    expect(await server.stop("SIGTERM")).toEqual({ code: 143, signal: null });
    const registry = `${server.agentDir}/serve/agents.json`;
    expect(statSync(registry).mode & 0o777).toBe(0o600);
    expect(statSync(`${server.agentDir}/serve`).mode & 0o777).toBe(0o700);
    expect(Object.keys(JSON.parse(readFileSync(registry, "utf8")).agents).sort()).toEqual([first.agent, second.agent].sort());

    const restarted = await ServerProcess.start({ agentDir: server.agentDir, cwd: server.cwd });
    const next = await restarted.connect();
    expect(next.records[0]!.epoch).not.toBe(first.epoch);
    const { agents } = await next.ok({ type: "agent_list" });
    expect(agents).toEqual(
      expect.arrayContaining([
        { agent: first.agent, name: "worked", cwd: server.cwd, sessionId: first.sessionId, sessionFile: first.sessionFile, status: "notLoaded", attached: 0, seq: 0 },
        { agent: second.agent, cwd: server.cwd, sessionId: second.sessionId, sessionFile: second.sessionFile, status: "notLoaded", attached: 0, seq: 0 },
      ]),
    );
    // A listed agent still holds its session, loaded or not: opening that file again is session_in_use (attach it instead).
    expect(await next.request({ type: "agent_open", resume: first.sessionFile })).toMatchObject({ success: false, code: "session_in_use" });
    expect(await next.ok({ type: "attach", agent: first.agent, after: 5, epoch: first.epoch })).toMatchObject({ gap: true, replayed: 0 });
    expect(await next.ok({ type: "get_messages", agent: first.agent })).toEqual(messages);
    expect(await next.ok({ type: "get_state", agent: second.agent })).toMatchObject({ sessionId: second.sessionId });
  });

  it("SIGTERM: server_shutting_down first, then each run's closing events and cancelled bash, sessions flushed, socket removed, exit 143", async () => {
    const server = await ServerProcess.start();
    const client = await server.connect();
    const { agent, sessionFile } = await client.ok({ type: "agent_open" });
    await client.ok({ type: "prompt", agent, message: "hello" });
    client.send({ type: "bash", agent, id: "long", command: "sleep 30" });
    await client.waitFor((r) => r.agent === agent && r.type === "message_update");
    const from = client.records.length;
    expect(await server.stop("SIGTERM")).toEqual({ code: 143, signal: null });
    await client.closed;
    // The run streams until the signal lands: the notice comes before its closing events, not before every event.
    const after: Record_[] = client.records.slice(from);
    const notice = after.findIndex((r) => r.type === "server_shutting_down");
    expect(after[notice]).toEqual({ type: "server_shutting_down", reason: "signal" });
    const closing = after.slice(notice + 1);
    expect(closing.find((r) => r.id === "long")).toMatchObject({ success: true, data: { cancelled: true } });
    expect(closing.find((r) => r.type === "agent_settled")).toMatchObject({ aborted: true });
    expect(() => statSync(server.socket)).toThrow();
    expect(readFileSync(sessionFile, "utf8")).toContain('"role":"user"');
  });

  it("SIGINT exits 130; server_shutdown answers, then shuts down with exit 0", async () => {
    const interrupted = await ServerProcess.start();
    await interrupted.connect();
    expect(await interrupted.stop("SIGINT")).toEqual({ code: 130, signal: null });

    const server = await ServerProcess.start();
    const client = await server.connect();
    const other = await server.connect();
    await client.ok({ type: "agent_open" });
    expect(await client.request({ type: "server_shutdown" })).toMatchObject({ success: true, command: "server_shutdown" });
    expect(await other.waitFor((r) => r.type === "server_shutting_down")).toEqual({ type: "server_shutting_down", reason: "request" });
    await Promise.all([client.closed, other.closed]);
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });
});
