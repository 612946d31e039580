/**
 * `atomic-agent/client`'s server client (`connect()`, issue 34) against a real `atomic serve`:
 * open, list and attach agents, each handle with the `RpcClient` methods; a dropped connection
 * reconnects and resumes after the last `seq` (every event once); a server restart is a gap the
 * handle reports (`onResync`) before it goes on.
 */
import { connect as dial, createServer, type Socket } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AgentEvent, connect, type ServerClient } from "../client/index.js";
import { textTurn, writeCassette } from "./helpers/rpc-client.js";
import { ServerProcess } from "./helpers/server.js";
import { tempDir } from "./helpers/temp.js";

const clients: ServerClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connected(url: string, options: Parameters<typeof connect>[1] = {}): Promise<ServerClient> {
  const client = await connect(url, options);
  clients.push(client);
  return client;
}

/** A unix socket in front of the server's whose connections the test can cut, and which refuses new ones while down. */
async function cuttableProxy(target: string): Promise<{ path: string; down(): void; up(): void; close(): Promise<void> }> {
  const path = join(tempDir("atomic-proxy-"), "p.sock");
  const open = new Set<Socket>();
  let refusing = false;
  const proxy = createServer((downstream) => {
    if (refusing) return void downstream.destroy();
    const upstream = dial(target);
    for (const socket of [downstream, upstream]) {
      open.add(socket);
      socket.on("error", () => undefined);
      socket.once("close", () => open.delete(socket));
    }
    downstream.pipe(upstream).pipe(downstream);
  });
  await new Promise<void>((resolve) => proxy.listen(path, resolve));
  return {
    path,
    down: () => {
      refusing = true;
      for (const socket of open) socket.destroy();
    },
    up: () => {
      refusing = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        proxy.close(() => resolve());
        for (const socket of open) socket.destroy();
      }),
  };
}

const envelopeFree = (events: AgentEvent[]) => events.every((event) => !("agent" in event) && !("seq" in event));

describe("the server client (connect)", { timeout: 90_000 }, () => {
  it("opens, lists and attaches agents; a handle has the RpcClient methods", async () => {
    const server = await ServerProcess.start();
    const client = await connected(`unix:${server.socket}`);
    expect(await client.info()).toMatchObject({ protocol: 1, epoch: client.epoch, counts: { connections: 1 } });
    const heard: AgentEvent[] = [];
    const agent = await client.openAgent({ name: "one" }, (event) => heard.push(event));
    const events = await agent.promptAndWait("hello");
    expect(events.map((event) => event.type)).toEqual(expect.arrayContaining(["agent_start", "message_update", "agent_end"]));
    expect(envelopeFree(events)).toBe(true);
    expect(await agent.getLastAssistantText()).toEqual(expect.any(String));
    expect(await agent.getState()).toMatchObject({ sessionName: "one", isStreaming: false });
    expect(await client.listAgents()).toEqual([expect.objectContaining({ agent: agent.agent, name: "one", status: "idle", attached: 1, seq: agent.seq })]);

    // Another client attaches with a replay of everything the server holds: the same events, once.
    const other = await connected(`unix:${server.socket}`);
    const replayed: AgentEvent[] = [];
    const watcher = await other.attach(agent.agent, { after: 0, onEvent: (event) => replayed.push(event) });
    expect(watcher.seq).toBe(agent.seq);
    expect(replayed).toEqual(heard);
    // The watcher's run fans out to both clients alike.
    await expect(watcher.prompt("x")).resolves.toBe("started");
    await watcher.waitForIdle();
    await expect.poll(() => heard.length).toBe(replayed.length);
    expect(replayed).toEqual(heard);
    expect(heard.filter((event) => event.type === "agent_settled")).toHaveLength(2);

    const closed = new Promise<void>((resolve) => watcher.onClose(resolve));
    await agent.close();
    await closed;
    expect(await client.listAgents()).toEqual([]);
    await expect(agent.getState()).rejects.toThrow(`Agent ${agent.agent} is closed`);
  });

  it("reconnects after the connection drops and resumes after the last seq: every event exactly once", async () => {
    const agentDir = tempDir("atomic-agent-");
    writeCassette(agentDir, "slow", [textTurn("word ".repeat(150), 150)], { eventDelayMs: 10 });
    const server = await ServerProcess.start({ agentDir, args: ["--provider", "replay", "--model", "slow"] });
    const proxy = await cuttableProxy(server.socket);
    const client = await connected(`unix:${proxy.path}`);
    let reconnects = 0;
    client.onReconnect(() => reconnects++);
    const seen: AgentEvent[] = [];
    const agent = await client.openAgent({}, (event) => seen.push(event));
    await agent.prompt("stream for a while");
    await new Promise<void>((resolve) => {
      const off = agent.onEvent((event) => event.type === "message_update" && (off(), resolve()));
    });
    proxy.down();
    await expect.poll(() => client.connected).toBe(false);
    // A command sent while it is away waits for the reconnect; the run goes on meanwhile.
    const state = agent.getState();
    proxy.up();
    expect(await state).toMatchObject({ sessionId: expect.any(String) });
    await agent.waitForIdle(60_000);
    expect(reconnects).toBe(1);

    // Everything the agent said since it opened, as a client attached all along would have it.
    const direct = await connected(`unix:${server.socket}`);
    const all: AgentEvent[] = [];
    await direct.attach(agent.agent, { after: 0, onEvent: (event) => all.push(event) });
    expect(all.at(-1)?.type).toBe("agent_settled");
    expect(seen).toEqual(all);
    await proxy.close();
  });

  it("a server that dies mid-run fails the handle's waits (no reconnect): promptAndWait and waitForIdle reject, later ones too", async () => {
    const agentDir = tempDir("atomic-agent-");
    writeCassette(agentDir, "slow", [textTurn("word ".repeat(150), 150)], { eventDelayMs: 10 });
    const server = await ServerProcess.start({ agentDir, args: ["--provider", "replay", "--model", "slow"] });
    const client = await connected(`unix:${server.socket}`, { reconnect: false });
    const agent = await client.openAgent();
    const streaming = new Promise<void>((resolve) => {
      const off = agent.onEvent((event) => event.type === "message_update" && (off(), resolve()));
    });
    const run = agent.promptAndWait("stream for a while", undefined, 600_000).catch((error: Error) => error.message);
    await streaming;
    const idle = agent.waitForIdle(600_000).catch((error: Error) => error.message);
    await server.stop("SIGKILL");
    expect(await run).toBe("The connection to atomic serve was lost");
    expect(await idle).toBe("The connection to atomic serve was lost");
    await expect(agent.waitForIdle(600_000)).rejects.toThrow("The connection to atomic serve was lost");
  });

  it("a server restart is a gap: the handle says resync, and goes on in the new epoch", async () => {
    const server = await ServerProcess.start();
    const client = await connected("unix:", { agentDir: server.agentDir });
    const agent = await client.openAgent();
    await agent.promptAndWait("before the restart");
    const messages = await agent.getMessages();
    const oldEpoch = agent.epoch;
    const resynced = new Promise<{ epoch: string }>((resolve) => agent.onResync(resolve));
    expect(await server.stop()).toEqual({ code: 143, signal: null });
    const restarted = await ServerProcess.start({ agentDir: server.agentDir, cwd: server.cwd });
    const { epoch } = await resynced;
    expect(epoch).not.toBe(oldEpoch);
    expect(agent.epoch).toBe(epoch);
    expect(await agent.getMessages()).toEqual(messages);
    await agent.promptAndWait("after it");
    const after = await agent.getMessages();
    expect(after.slice(0, messages.length)).toEqual(messages);
    expect(after.length).toBeGreaterThan(messages.length);
    await restarted.stop();
  });
});
