/**
 * A real network drop between a client and `atomic serve` (issue 35), not a server restart: a
 * loopback proxy in the middle cuts every connection abruptly while an answer streams (sockets
 * destroyed) or turns into a black hole (nothing passes any more and no FIN is sent, so only a
 * keepalive can tell). The client reconnects through the proxy and resumes after the last `seq`
 * it saw: every event exactly once, in order. Both clients: `atomic-agent/client`'s server client
 * over a unix socket, and a WebSocket client over TCP to `--listen ws://127.0.0.1:0` (the web
 * page's way: attach with `after`/`epoch`), whose black-holed peer the server's keepalive drops.
 */
import { connect as dial, createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { type AgentEvent, connect } from "../client/index.js";
import { textTurn, writeCassette, type Record_ } from "./helpers/rpc-client.js";
import { ServerProcess } from "./helpers/server.js";
import { tempDir } from "./helpers/temp.js";
import { startWsServer } from "./helpers/ws-server.js";

const KEEPALIVE_MS = 300;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

interface DropProxy {
  /** `unix:PATH`, or the TCP port on 127.0.0.1. */
  path?: string;
  port?: number;
  /** Connections accepted so far. */
  accepted: number;
  /** Destroys every open connection, both sides: an abrupt drop. */
  cut(): void;
  /** The open connections stop carrying anything, in both directions, and nobody is told (no FIN). */
  blackhole(): void;
}

/** A proxy that forwards each connection to `target()`; new connections always pass. */
async function dropProxy(listen: { path: string } | { port: 0 }, target: () => Socket): Promise<DropProxy> {
  const pairs = new Set<[Socket, Socket]>();
  const frozen = new Set<Socket>();
  const proxy: DropProxy = {
    accepted: 0,
    cut: () => {
      for (const [down, up] of pairs) {
        down.destroy();
        up.destroy();
      }
    },
    blackhole: () => {
      for (const pair of pairs) {
        const [down, up] = pair;
        down.unpipe(up);
        up.unpipe(down);
        down.pause();
        up.pause();
        pairs.delete(pair);
        frozen.add(down).add(up);
      }
    },
  };
  const server: Server = createServer((down) => {
    proxy.accepted++;
    const up = target();
    const pair: [Socket, Socket] = [down, up];
    pairs.add(pair);
    for (const socket of pair) {
      socket.on("error", () => undefined);
      socket.once("close", () => {
        pairs.delete(pair);
        down.destroy();
        up.destroy();
      });
    }
    down.pipe(up).pipe(down);
  });
  await new Promise<void>((resolve) => server.listen("path" in listen ? listen.path : { host: "127.0.0.1", port: 0 }, resolve));
  cleanups.push(async () => {
    proxy.cut();
    for (const socket of frozen) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  if ("path" in listen) proxy.path = listen.path;
  else proxy.port = (server.address() as { port: number }).port;
  return proxy;
}

/** An agent dir whose replay model streams one long answer, an event every few milliseconds. */
function slowAgentDir(): string {
  const agentDir = tempDir("atomic-agent-");
  writeCassette(agentDir, "slow", [textTurn("word ".repeat(1000), 1000)], { eventDelayMs: 10 });
  return agentDir;
}

const SERVE_ARGS = ["--provider", "replay", "--model", "slow"];
const SETTINGS = { serve: { keepaliveMs: KEEPALIVE_MS } };

/** Resolves once `count` more records matching `match` came after `from`. */
function more<T>(list: () => T[], match: (item: T) => boolean, count: number): Promise<void> {
  const from = list().filter(match).length;
  return expect.poll(() => list().filter(match).length - from, { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(count) as unknown as Promise<void>;
}

describe("a network drop between a client and atomic serve", { timeout: 120_000 }, () => {
  it("the server client reconnects through cuts and a black hole mid-stream and gets every event exactly once", async () => {
    const agentDir = slowAgentDir();
    const server = await ServerProcess.start({ agentDir, args: SERVE_ARGS, settings: SETTINGS });
    cleanups.push(() => server.stop());
    const proxy = await dropProxy({ path: join(tempDir("atomic-proxy-"), "p.sock") }, () => dial(server.socket));
    const client = await connect(`unix:${proxy.path}`, { keepaliveMs: KEEPALIVE_MS, reconnectTimeoutMs: 60_000 });
    cleanups.push(() => client.close());
    let reconnects = 0;
    client.onReconnect(() => reconnects++);
    const seen: AgentEvent[] = [];
    const agent = await client.openAgent({}, (event) => seen.push(event));
    const updates = (event: AgentEvent) => event.type === "message_update";

    await agent.prompt("stream for a while");
    const drops = ["cut", "blackhole", "cut", "blackhole", "cut"] as const;
    for (const drop of drops) {
      await more(() => seen, updates, 5);
      const before = reconnects;
      proxy[drop]();
      // Back in step: reconnected through the proxy (a probe answered late on a busy machine may
      // add a reconnect of its own, which is fine).
      await expect.poll(() => reconnects, { timeout: 30_000, interval: 20 }).toBeGreaterThan(before);
    }
    await agent.waitForIdle(60_000);
    expect(proxy.accepted).toBeGreaterThanOrEqual(drops.length + 1);
    // It all happened while the answer streamed.
    expect(seen.filter((event) => event.type === "agent_end")).toHaveLength(1);

    // Everything the agent said since it opened, as a client attached all along would have it.
    const direct = await connect(`unix:${server.socket}`);
    cleanups.push(() => direct.close());
    const all: AgentEvent[] = [];
    await direct.attach(agent.agent, { after: 0, onEvent: (event) => all.push(event) });
    expect(all.at(-1)?.type).toBe("agent_settled");
    expect(seen).toEqual(all);
  });

  it("a WebSocket client over TCP resumes after its last seq through cuts and a black hole; the server drops the dead peers", async () => {
    const { server, token, port } = await startWsServer({ agentDir: slowAgentDir(), args: SERVE_ARGS, settings: SETTINGS });
    cleanups.push(() => server.stop());
    const proxy = await dropProxy({ port: 0 }, () => dial({ host: "127.0.0.1", port }));
    const client = new ResumingWsClient(`ws://127.0.0.1:${proxy.port}/`, token);
    cleanups.push(async () => client.stop());
    await client.connected();
    const opened = await client.ok({ type: "agent_open" });
    client.follow(String(opened.agent), String(opened.epoch), Number(opened.seq));
    const isUpdate = (record: Record_) => record.type === "message_update";

    await client.ok({ type: "prompt", agent: opened.agent, message: "stream for a while" });
    const drops = ["cut", "blackhole", "cut", "blackhole"] as const;
    for (const drop of drops) {
      await more(() => client.events, isUpdate, 5);
      const before = client.resumes;
      proxy[drop]();
      await expect.poll(() => client.resumes, { timeout: 30_000, interval: 20 }).toBeGreaterThan(before);
    }
    await expect.poll(() => client.events.at(-1)?.type, { timeout: 60_000, interval: 50 }).toBe("agent_settled");

    // Every seq once, in order, none missing: the server replayed exactly what each drop lost.
    const seqs = client.events.map((record) => record.seq as number);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => Number(opened.seq) + 1 + i));
    expect(client.events.filter((record) => record.type === "agent_end")).toHaveLength(1);
    // The black-holed connections are gone from the server (its keepalive): only this client's is left.
    const connections = async () => (await client.ok({ type: "server_info" }).catch(() => undefined))?.counts.connections;
    await expect.poll(connections, { timeout: 30_000, interval: 100 }).toBe(1);
  });
});

/**
 * What the web page does over its WebSocket, in Node: reconnect with backoff, attach again after
 * the last seq of the epoch, and give up a connection that stops answering (here by WebSocket
 * ping, which a browser cannot send; the page probes with a request). Records every event of the
 * agent it follows, as the server sent it.
 */
class ResumingWsClient {
  readonly events: Record_[] = [];
  resumes = 0;
  #socket: WebSocket | undefined;
  #nextId = 1;
  #pending = new Map<string, (record: Record_) => void>();
  #followed: { agent: string; epoch: string; seq: number } | undefined;
  #stopped = false;
  #ready: Promise<void>;
  #markReady!: () => void;
  #pinger: NodeJS.Timeout;

  constructor(
    readonly url: string,
    readonly token: string,
  ) {
    this.#ready = new Promise((resolve) => (this.#markReady = resolve));
    this.#dial();
    const unanswered = new WeakSet<WebSocket>();
    this.#pinger = setInterval(() => {
      const socket = this.#socket;
      if (!socket || socket.readyState !== WebSocket.OPEN) return;
      if (unanswered.has(socket)) return socket.terminate();
      unanswered.add(socket);
      socket.once("pong", () => unanswered.delete(socket));
      socket.ping();
    }, KEEPALIVE_MS);
  }

  connected(): Promise<void> {
    return this.#ready;
  }

  follow(agent: string, epoch: string, seq: number): void {
    this.#followed = { agent, epoch, seq };
  }

  async ok(command: Record<string, unknown>): Promise<any> {
    await this.#ready;
    const id = `r${this.#nextId++}`;
    const socket = this.#socket!;
    const response = await new Promise<Record_>((resolve, reject) => {
      this.#pending.set(id, resolve);
      socket.once("close", () => this.#pending.delete(id) && reject(new Error(`${String(command.type)}: connection lost`)));
      socket.send(JSON.stringify({ ...command, id }));
    });
    if (!response.success) throw new Error(`${String(command.type)} failed: ${String(response.error)}`);
    return response.data;
  }

  stop(): void {
    this.#stopped = true;
    clearInterval(this.#pinger);
    this.#socket?.terminate();
  }

  #dial(): void {
    const socket = new WebSocket(this.url, { headers: { Authorization: `Bearer ${this.token}` } });
    this.#socket = socket;
    socket.on("error", () => undefined);
    socket.on("message", (data: Buffer) => this.#onRecord(socket, JSON.parse(data.toString("utf8")) as Record_));
    socket.once("close", () => {
      if (this.#socket !== socket || this.#stopped) return;
      this.#ready = new Promise((resolve) => (this.#markReady = resolve));
      setTimeout(() => this.#dial(), 50);
    });
  }

  #onRecord(socket: WebSocket, record: Record_): void {
    if (socket !== this.#socket) return;
    if (record.type === "server_hello") return void this.#resume(socket);
    if (record.type === "response" && typeof record.id === "string" && this.#pending.has(record.id)) {
      const resolve = this.#pending.get(record.id)!;
      this.#pending.delete(record.id);
      return resolve(record);
    }
    const followed = this.#followed;
    // replay_complete carries the agent's seq but is the server's marker, not an event.
    if (!followed || record.agent !== followed.agent || typeof record.seq !== "number" || record.type === "replay_complete") return;
    followed.seq = record.seq;
    this.events.push(record);
  }

  /** Attached again after the last seq (or, the first time, nothing to resume). */
  #resume(socket: WebSocket): void {
    const followed = this.#followed;
    if (!followed) return this.#markReady();
    const id = `r${this.#nextId++}`;
    this.#pending.set(id, (response) => {
      if (!response.success || (response.data as { gap?: boolean }).gap) throw new Error(`resume failed: ${JSON.stringify(response)}`);
      this.resumes++;
      this.#markReady();
    });
    socket.send(JSON.stringify({ type: "attach", agent: followed.agent, role: "control", after: followed.seq, epoch: followed.epoch, id }));
  }
}
