/**
 * `atomic --mode rpc --connect URL` (issue 34; docs/decisions.md, Old clients): plain `--mode
 * rpc` on its own stdio through a running server. What it writes carries no server envelope and
 * no server record; the end of its input detaches (the agent and its run stay) unless
 * `--close-on-exit`; `--agent` attaches to an open agent; what it cannot do is a clear error. A
 * signal ends it at once, whatever is still unanswered; a client's ids never pass for its own.
 * The seed suites run through it too (test/*.via-server.e2e.test.ts).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { RpcClient, textTurn, writeCassette, type Record_ } from "./helpers/rpc-client.js";
import { type ServerClient, ServerProcess } from "./helpers/server.js";
import { tempDir } from "./helpers/temp.js";

function bridge(server: ServerProcess, ...args: string[]): RpcClient {
  return new RpcClient({ agentDir: server.agentDir, cwd: server.cwd, args: ["--mode", "rpc", "--connect", "unix:", ...args] });
}

const SERVER_TYPES = ["server_hello", "replay_complete", "client_lagged", "connection_closing", "server_shutting_down", "agent_closed"];
function envelopeFree(records: Record_[]): boolean {
  return records.every((r) => !("agent" in r) && !("seq" in r) && !("code" in r) && !SERVER_TYPES.includes(r.type));
}

/** The server's agents once one of them matches (the bridge's open and detach are its own: polled). */
async function waitForAgent(watcher: ServerClient, match: (agent: Record<string, any>) => boolean): Promise<Record<string, any>[]> {
  for (let i = 0; i < 100; i++) {
    const { agents } = await watcher.ok({ type: "agent_list" });
    if (agents.some(match)) return agents.filter(match);
    await sleep(100);
  }
  throw new Error("no agent matched");
}

describe("atomic --mode rpc --connect", { timeout: 60_000 }, () => {
  it("opens an agent and speaks plain --mode rpc; the end of input detaches, and the agent and its run stay", async () => {
    const agentDir = tempDir("atomic-agent-");
    writeCassette(agentDir, "slow", [textTurn("word ".repeat(100), 100)], { eventDelayMs: 10 });
    const server = await ServerProcess.start({ agentDir, args: ["--provider", "replay", "--model", "slow"] });
    const watcher = await server.connect();
    const c = bridge(server, "--name", "bridged");
    const state = await c.ok({ type: "get_state" });
    expect(state).toMatchObject({ sessionName: "bridged", sessionFile: expect.any(String) });
    const [listed] = (await watcher.ok({ type: "agent_list" })).agents;
    expect(listed).toMatchObject({ name: "bridged", sessionId: state.sessionId, attached: 1, status: "idle" });
    await watcher.ok({ type: "attach", agent: listed.agent, after: listed.seq });

    await c.ok({ type: "prompt", message: "go on without me" });
    await c.waitForEvent("message_update");
    expect(await c.close()).toEqual({ code: 0, signal: null });
    expect(envelopeFree(c.records)).toBe(true);
    expect(await watcher.waitFor((r) => r.type === "agent_settled", 30_000)).toMatchObject({ agent: listed.agent, aborted: false });
    expect((await watcher.ok({ type: "agent_list" })).agents).toEqual([expect.objectContaining({ agent: listed.agent, attached: 1 })]);
    const { messages } = await watcher.ok({ type: "get_messages", agent: listed.agent });
    expect(messages.map((m: { role: string; stopReason?: string }) => m.stopReason ?? m.role)).toEqual(["user", "stop"]);
  });

  it("--agent attaches to an open agent; --close-on-exit closes it as a --mode rpc process ends its own", async () => {
    const server = await ServerProcess.start();
    const watcher = await server.connect();
    const opened = await watcher.ok({ type: "agent_open" });
    const c = bridge(server, "--agent", opened.agent, "--close-on-exit");
    expect(await c.ok({ type: "get_state" })).toMatchObject({ sessionId: opened.sessionId });
    await c.ok({ type: "prompt", message: "hello" });
    await c.waitForEvent("agent_settled");
    // The watcher hears the bridge's run, with the envelope the bridge took off.
    expect(watcher.events(opened.agent).map((r) => r.type)).toContain("agent_end");
    expect(await c.close()).toEqual({ code: 0, signal: null });
    expect(envelopeFree(c.records)).toBe(true);
    expect(await watcher.waitFor((r) => r.type === "agent_closed")).toEqual({ type: "agent_closed", agent: opened.agent });
    expect((await watcher.ok({ type: "agent_list" })).agents).toEqual([]);
  });

  it("what it cannot do is a clear error: a session in use, an unknown agent, no server, a URL or option it does not take", async () => {
    const server = await ServerProcess.start();
    const holder = await server.connect();
    const held = await holder.ok({ type: "agent_open" });
    const refusals: [string[], number, string][] = [
      [["--resume", held.sessionFile], 1, `atomic: Session ${held.sessionFile} is already open in agent ${held.agent}`],
      [["--agent", "a_aaaaaaaaaa"], 1, "atomic: Unknown agent: a_aaaaaaaaaa"],
      [["--extension", "x.ts"], 2, "atomic: --extension is not available with --connect"],
      // The server names agent_open's fields; the bridge was given flags, and names those.
      [["--provider", "nosuch"], 2, 'atomic: Unknown provider "nosuch" (--provider). Known providers: '],
      [["--thinking", "extreme"], 2, 'atomic: Invalid thinking level "extreme" for --thinking. Valid levels: '],
    ];
    for (const [args, code, message] of refusals) {
      const c = bridge(server, ...args);
      expect(await c.exited).toEqual({ code, signal: null });
      expect(c.stderr).toContain(message);
      expect(c.records).toEqual([]);
    }
    const elsewhere = new RpcClient({ args: ["--mode", "rpc", "--connect", `unix:${tempDir("atomic-none-")}/none.sock`] });
    expect(await elsewhere.exited).toEqual({ code: 1, signal: null });
    expect(elsewhere.stderr).toMatch(/atomic: cannot connect to unix:.*none\.sock/);
    expect(elsewhere.stderr).toContain("No server is listening there. Start one first, in another terminal: atomic serve --listen unix:");
    const ws = new RpcClient({ args: ["--mode", "rpc", "--connect", "ws://127.0.0.1:1"] });
    expect(await ws.exited).toEqual({ code: 2, signal: null });
    expect(ws.stderr).toContain('--connect takes unix:PATH (got "ws://127.0.0.1:1")');
  });

  it("a malformed --agent is a usage error saying what a handle looks like, never a hang or the bridge's own record", async () => {
    const server = await ServerProcess.start();
    for (const agent of ["a_doesnotexist", "", "A_ZKBJIIXNWS", "a_aaaaaaaaa1"]) {
      const c = bridge(server, "--agent", agent);
      c.child.stdin.end();
      expect(await Promise.race([c.exited, sleep(10_000).then(() => "hung")])).toEqual({ code: 2, signal: null });
      expect(c.stderr).toContain(`atomic: Invalid --agent "${agent}": a handle is "a_" and 10 characters a-z or 2-7`);
      expect(c.records).toEqual([]);
    }
    const attaching = bridge(server, "--agent", "a_aaaaaaaaaa", "--model", "demo");
    expect(await attaching.exited).toEqual({ code: 2, signal: null });
    expect(attaching.stderr).toContain("--agent attaches to an open agent: it cannot be given with --model");
  });

  it("a client whose ids look like the bridge's own gets every response, and the bridge still detaches", async () => {
    const server = await ServerProcess.start();
    const watcher = await server.connect();
    const c = bridge(server);
    for (const id of ["atomic-bridge:1", "atomic-bridge:2", "atomic-bridge:3"]) {
      const from = c.records.length;
      c.send({ type: "get_state", id });
      expect(await c.waitFor((r) => r.type === "response" && r.id === id, 10_000, from)).toMatchObject({ command: "get_state", success: true });
    }
    expect(await c.close()).toEqual({ code: 0, signal: null });
    expect(envelopeFree(c.records)).toBe(true);
    expect((await watcher.ok({ type: "agent_list" })).agents).toEqual([expect.objectContaining({ attached: 0 })]);
  });

  it("--sandbox is the new agent's sandbox (agent_open's); one the server does not know is refused", async () => {
    const server = await ServerProcess.start();
    const c = bridge(server, "--sandbox", "read-only", "--close-on-exit");
    expect((await c.ok({ type: "get_state" })).sandbox).toMatchObject({ mode: "read-only" });
    expect(await c.close()).toEqual({ code: 0, signal: null });
    const wrong = bridge(server, "--sandbox", "wide-open");
    expect(await wrong.exited).toEqual({ code: 2, signal: null });
    expect(wrong.stderr).toContain("sandbox");
  });

  it("SIGTERM or SIGINT ends it at once: detached (the command goes on), or with --close-on-exit closed (bash cancelled)", async () => {
    const server = await ServerProcess.start();
    const watcher = await server.connect();
    const bash = { type: "bash", command: "sleep 30; echo done", id: 1 };
    // The end of input came first: it waits for the bash; the signal does not.
    const detached = bridge(server);
    detached.send(bash);
    await waitForAgent(watcher, (agent) => agent.attached === 1);
    detached.child.stdin.end();
    await sleep(500);
    detached.child.kill("SIGTERM");
    expect(await Promise.race([detached.exited, sleep(5_000).then(() => "still running")])).toEqual({ code: 143, signal: null });
    const [kept] = await waitForAgent(watcher, (agent) => agent.attached === 0);
    await watcher.ok({ type: "agent_close", agent: kept.agent });

    const closing = bridge(server, "--close-on-exit");
    closing.send(bash);
    const [open] = await waitForAgent(watcher, (agent) => agent.attached === 1);
    await sleep(500);
    closing.child.kill("SIGINT");
    expect(await Promise.race([closing.exited, sleep(5_000).then(() => "still running")])).toEqual({ code: 130, signal: null });
    expect(closing.records).toContainEqual(expect.objectContaining({ id: 1, type: "response", command: "bash", data: expect.objectContaining({ cancelled: true }) }));
    expect((await watcher.ok({ type: "agent_list" })).agents.map((agent: { agent: string }) => agent.agent)).not.toContain(open.agent);
    expect(await server.stop()).toEqual({ code: 143, signal: null });
  });
});
