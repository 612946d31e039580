/**
 * `atomic serve --listen ws://...`: its limits (issue 35; docs/decisions.md, Limits and Slow
 * clients). 10,000 connections opened and dropped leave no connection, file descriptor or heap
 * behind (measured after a full collection, through the server's inspector); a 100 MiB frame is a record like any other, a frame over the line limit is refused with
 * 1009 before it is read, a binary frame closes with 1003; `maxConnections` is a 503 before the
 * upgrade; a peer that stops answering pings is dropped; a client that stops reading is closed
 * with 1013; `/readyz` turns 503 while the server shuts down. The agent of another client runs
 * through all of it.
 */
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import type { Record_ } from "./helpers/rpc-client.js";
import { REPLAY_ARGS } from "./helpers/server.js";
import { framesOf, get, heapAfterGc, openFds, residentBytes, startWsServer, textFrameHeader, upgrade, WsClient } from "./helpers/ws-server.js";

const SLOW_SHUTDOWN = resolve(import.meta.dirname, "fixtures/extensions/slow-shutdown.ts");

function seqsOf(records: Record_[], agent: string): number[] {
  return records.filter((r) => r.agent === agent && typeof r.seq === "number").map((r) => r.seq as number);
}

function contiguous(seqs: number[]): boolean {
  return seqs.every((seq, i) => i === 0 || seq === seqs[i - 1]! + 1);
}

async function until(condition: () => Promise<boolean> | boolean, what: string, tries = 400): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await condition()) return;
    await new Promise((done) => setTimeout(done, 50));
  }
  throw new Error(`never happened: ${what}`);
}

/** Opens a connection, waits for server_hello, and drops it: half close politely, half just vanish. */
async function openAndDrop(url: string, token: string, polite: boolean): Promise<void> {
  const socket = new WebSocket(url, { headers: { Authorization: `Bearer ${token}` } });
  await new Promise<void>((done, fail) => {
    socket.once("message", () => done());
    socket.once("error", fail);
  });
  if (polite) {
    socket.close();
    await new Promise((done) => socket.once("close", done));
  } else socket.terminate();
}

describe("atomic serve over WebSocket: limits", { timeout: 300_000 }, () => {
  it("10,000 connections opened and dropped leave nothing behind; the running agent of another client is untouched", async () => {
    const { server, url, token } = await startWsServer({ env: { NODE_OPTIONS: "--inspect=127.0.0.1:0" } });
    const owner = await WsClient.open(url, token);
    const { agent } = await owner.ok({ type: "agent_open" });
    const { pid } = await owner.ok({ type: "server_info" });
    const churn = async (count: number) => {
      const WAVE = 40;
      for (let done = 0; done < count; done += WAVE) await Promise.all(Array.from({ length: Math.min(WAVE, count - done) }, (_, i) => openAndDrop(url, token, i % 2 === 0)));
    };
    const settled = async () => (await owner.ok({ type: "server_info" })).counts.connections === 1;

    // Warm up (code paths compiled, pools grown, the session file open), then the baseline.
    owner.send({ type: "prompt", agent, message: "Please create a notes file" });
    await churn(500);
    await owner.waitFor((r) => r.agent === agent && r.type === "agent_settled", 60_000);
    await until(settled, "the warm-up connections are gone");
    const fds = openFds(pid);
    const heap = await heapAfterGc(server);

    const from = owner.records.length;
    owner.send({ type: "prompt", agent, message: "What is in this folder?" });
    await churn(10_000);
    await until(settled, "every dropped connection is forgotten");
    await until(() => openFds(pid) === fds, `file descriptors back to ${fds} (now ${openFds(pid)})`);
    // Nothing kept per connection: 10,000 leaked connections of even 400 bytes each would show here.
    const heapGrowth = (await heapAfterGc(server)) - heap;
    expect(heapGrowth).toBeLessThan(4 * 1024 * 1024);

    await owner.waitFor((r) => r.agent === agent && r.type === "agent_settled", 60_000, from);
    expect(owner.records.slice(from).some((r) => r.type === "tool_execution_end" && r.toolName === "bash")).toBe(true);
    expect(contiguous(seqsOf(owner.records, agent))).toBe(true);
    expect(await owner.ok({ type: "get_state", agent })).toMatchObject({ isStreaming: false });
    expect(server.stderr).not.toMatch(/error|warning/i);
  });

  it("a 100 MiB frame is read and answered; a frame over the line limit is refused with 1009 before it is read; a binary frame closes with 1003", async () => {
    const { server, url, token, port } = await startWsServer();
    const owner = await WsClient.open(url, token);
    const { agent } = await owner.ok({ type: "agent_open" });
    const { pid } = await owner.ok({ type: "server_info" });

    const big = await WsClient.open(url, token);
    const pad = "x".repeat(100 * 1024 * 1024 - 64);
    big.socket.send(`{"type":"get_state","agent":"${agent}","id":"big","pad":"${pad}"}`);
    expect(await big.waitFor((r) => r.id === "big", 60_000)).toMatchObject({ type: "response", command: "get_state", success: true, agent });
    // The connection goes on.
    expect(await big.ok({ type: "server_info" })).toMatchObject({ protocol: 1 });

    // A header that announces 1 GiB (past the line limit): refused at once, nothing buffered.
    const rss = residentBytes(pid);
    const raw = await upgrade(port, { Authorization: `Bearer ${token}` });
    let received = Buffer.alloc(0);
    raw.socket!.on("data", (chunk: Buffer) => (received = Buffer.concat([received, chunk])));
    raw.socket!.write(Buffer.concat([textFrameHeader(1024 * 1024 * 1024), Buffer.alloc(4096, 0x20)]));
    await new Promise((done) => raw.socket!.once("close", done));
    const close = framesOf(received).find((frame) => frame.opcode === 0x8)!;
    expect(close.payload.readUInt16BE(0)).toBe(1009);
    expect(close.payload.subarray(2).toString()).toMatch(/^frame over the line limit \(\d+ bytes\)$/);
    expect(residentBytes(pid) - rss).toBeLessThan(64 * 1024 * 1024);

    const binary = await WsClient.open(url, token);
    binary.socket.send(Buffer.from('{"type":"server_info"}'), { binary: true });
    expect(await binary.closed).toEqual({ code: 1003, reason: "binary frames are not accepted: send one JSON record per text frame" });

    // The refused connections are forgotten once the server has seen them close (owner and big stay).
    await until(async () => (await owner.ok({ type: "server_info" })).counts.connections === 2, "the refused connections are forgotten");
    expect(await owner.ok({ type: "get_state", agent })).toMatchObject({ isStreaming: false });
    await server.stop();
  });

  it("maxConnections is a 503 before the upgrade; a peer that stops answering pings is dropped, one that answers stays", async () => {
    const { url, token, port } = await startWsServer({ settings: { serve: { maxConnections: 3, keepaliveMs: 200 } } });
    const clients = [await WsClient.open(url, token), await WsClient.open(url, token)];
    // A raw socket that completed the handshake and never answers a ping: the third connection.
    const silent = await upgrade(port, { Authorization: `Bearer ${token}` });
    expect(silent.status).toBe(101);
    silent.socket!.on("data", () => undefined);
    const full = await upgrade(port, { Authorization: `Bearer ${token}` });
    expect(full).toMatchObject({ status: 503, headers: { "retry-after": "1" } });
    expect(JSON.parse(full.body).error).toContain("maxConnections");

    await new Promise((done) => silent.socket!.once("close", done));
    // The answering clients outlived several pings; the server forgets the dropped peer once its close is seen.
    await until(async () => (await clients[0]!.ok({ type: "server_info" })).counts.connections === 2, "the silent peer is forgotten");
    expect((await clients[1]!.ok({ type: "server_info" })).counts.connections).toBe(2);
    const third = await WsClient.open(url, token);
    expect((await third.ok({ type: "server_info" })).counts.connections).toBe(3);
  });

  it("a client that stops reading is closed with 1013; the reader beside it gets every event", async () => {
    const { url, token } = await startWsServer({ settings: { serve: { outboundBytes: 256 * 1024 } } });
    const reader = await WsClient.open(url, token);
    const stalled = await WsClient.open(url, token);
    const { agent } = await reader.ok({ type: "agent_open" });
    await stalled.ok({ type: "attach", agent });
    stalled.socket.pause();

    // More than loopback TCP's buffers hold (a few MiB), so the server's own queue grows; in
    // pieces well under the bound, so the reader keeps up on a busy machine too.
    const pieces = 128;
    const pieceBytes = 128 * 1024;
    const command = `for i in $(seq ${pieces}); do yes 0123456789abcdefghijklmnopqrstuvwxyz | head -c ${pieceBytes}; sleep 0.04; done`;
    const bash = reader.request({ type: "bash", agent, command }, 120_000);
    await until(async () => (await reader.ok({ type: "server_info" })).counts.connections === 1, "the stalled client is closed");
    // Read again at once: what it was owed is flushed within the server's close grace, not forever.
    stalled.socket.resume();
    expect((await stalled.closed).code).toBe(1013);

    expect(await bash).toMatchObject({ success: true, data: { exitCode: 0 } });
    const streamed = reader.records.filter((r) => r.type === "bash_execution_update").map((r) => String(r.delta));
    expect(streamed.join("").length).toBe(pieces * pieceBytes);
    expect(contiguous(seqsOf(reader.records, agent))).toBe(true);
    expect(contiguous(seqsOf(stalled.records, agent))).toBe(true);
    expect(seqsOf(stalled.records, agent).length).toBeLessThan(seqsOf(reader.records, agent).length);
    expect(stalled.records.at(-1)).toEqual({ type: "connection_closing", reason: "slow_consumer" });
  });

  it("/readyz answers 503 and upgrades are refused while the server shuts down; /healthz stays 200 until it is gone", async () => {
    const { server, url, token, port } = await startWsServer({ args: [...REPLAY_ARGS, "-e", SLOW_SHUTDOWN] });
    const client = await WsClient.open(url, token);
    await client.ok({ type: "agent_open" });
    expect((await get(port, "/readyz")).status).toBe(200);
    server.child.kill("SIGTERM");
    await client.waitFor((r) => r.type === "server_shutting_down");
    await until(async () => (await get(port, "/readyz")).status === 503, "/readyz is 503");
    expect((await get(port, "/healthz")).status).toBe(200);
    expect(await upgrade(port, { Authorization: `Bearer ${token}` })).toMatchObject({ status: 503 });
    expect((await client.closed).code).toBe(1001);
    expect(await server.exited).toEqual({ code: 143, signal: null });
  });
});
