/**
 * `atomic serve`: slow clients never slow an agent or another client (issue 34; docs/decisions.md,
 * Slow clients). A socket client that stops reading is told `connection_closing
 * {reason: "slow_consumer"}` and closed once it is `outboundBytes` behind, while a reading client
 * beside it gets every event; the stdio client is detached instead, gets every response, and
 * hears `client_lagged` once it has caught up.
 */
import { describe, expect, it } from "vitest";
import type { Record_ } from "./helpers/rpc-client.js";
import { ServerProcess, type ServerClient } from "./helpers/server.js";

// 2.5 MB in 50 pieces, 80 ms apart: ten times the bound, so a client that stops reading is cut, at
// a pace a client that reads keeps up with even on a loaded machine (all at once, the reader in the
// test process could itself fall a bound behind while descheduled, and be cut as slow: CI saw it).
const PIECES = 50;
const PIECE_BYTES = 50 * 1024;
const OUTPUT_BYTES = PIECES * PIECE_BYTES;
const BIG_OUTPUT = `for i in $(seq ${PIECES}); do yes 0123456789abcdefghijklmnopqrstuvwxyz | head -c ${PIECE_BYTES}; sleep 0.08; done`;
const LIMIT = 256 * 1024;

function seqsOf(records: Record_[], agent: string): number[] {
  return records.filter((r) => r.agent === agent && typeof r.seq === "number").map((r) => r.seq as number);
}

function contiguous(seqs: number[]): boolean {
  return seqs.every((seq, i) => i === 0 || seq === seqs[i - 1]! + 1);
}

async function connections(client: ServerClient): Promise<number> {
  return (await client.ok({ type: "server_info" })).counts.connections;
}

describe("atomic serve: slow clients", { timeout: 120_000 }, () => {
  it("a socket that stops reading is closed as a slow consumer; the reader beside it gets everything", async () => {
    const server = await ServerProcess.start({ settings: { serve: { outboundBytes: LIMIT } } });
    const reader = await server.connect();
    const stalled = await server.connect();
    const { agent } = await reader.ok({ type: "agent_open" });
    await stalled.ok({ type: "attach", agent });
    stalled.socket.pause();

    const bash = reader.request({ type: "bash", agent, command: BIG_OUTPUT }, 60_000);
    // The stalled client is gone (the reader is the only connection left) without having read a byte more.
    for (let tries = 0; (await connections(reader)) !== 1; tries++) {
      expect(tries).toBeLessThan(400);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Read again at once: what it was owed is flushed within the server's close grace, not forever.
    stalled.socket.resume();
    await stalled.closed;

    expect(await bash).toMatchObject({ success: true, data: { exitCode: 0 } });
    const updates = reader.records.filter((r) => r.type === "bash_execution_update");
    expect(updates.map((r) => String(r.delta)).join("").length).toBe(OUTPUT_BYTES);
    expect(contiguous(seqsOf(reader.records, agent))).toBe(true);
    const received = seqsOf(stalled.records, agent);
    expect(contiguous(received)).toBe(true);
    expect(received.length).toBeLessThan(seqsOf(reader.records, agent).length);
    expect(stalled.records.at(-1)).toEqual({ type: "connection_closing", reason: "slow_consumer" });
    // The agent never waited for it: it still answers at once.
    expect(await reader.request({ type: "get_state", agent })).toMatchObject({ success: true });
  });

  it("stdio that stops reading is detached, keeps every response, and hears client_lagged once it catches up", async () => {
    const server = await ServerProcess.start({ listen: ["stdio", "unix:"], settings: { serve: { outboundBytes: LIMIT } } });
    // Complete lines only: the last one may still be arriving.
    const records = (): Record_[] =>
      server.stdout
        .slice(0, server.stdout.lastIndexOf("\n") + 1)
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record_);
    const waitStdout = async (match: (r: Record_) => boolean): Promise<Record_> => {
      for (let tries = 0; tries < 600; tries++) {
        const found = records().find(match);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`not on stdout: ${server.stdout.slice(-500)}`);
    };
    server.child.stdin.write('{"type":"agent_open","id":"open"}\n');
    const agent = ((await waitStdout((r) => r.id === "open")).data as { agent: string }).agent;
    server.child.stdout.pause();

    const other = await server.connect();
    await other.ok({ type: "bash", agent, command: BIG_OUTPUT }, 60_000);
    server.child.stdin.write(`{"type":"get_state","id":"state","agent":"${agent}"}\n`);
    await other.ok({ type: "get_state", agent });
    server.child.stdout.resume();

    const lagged = await waitStdout((r) => r.type === "client_lagged");
    expect(lagged).toEqual({ type: "client_lagged", agents: [agent] });
    await waitStdout((r) => r.id === "state");
    const all = records();
    const lagIndex = all.indexOf(all.find((r) => r.type === "client_lagged")!);
    const before = seqsOf(all.slice(0, lagIndex), agent);
    expect(contiguous(before)).toBe(true);
    const { agents } = await other.ok({ type: "agent_list" });
    expect(before.length).toBeLessThan(agents[0].seq);
    expect(seqsOf(all.slice(lagIndex), agent)).toEqual([]);
    expect(all.find((r) => r.id === "state")).toMatchObject({ success: true, agent });

    // Attached again from where it stopped: a replay, or a gap when the ring moved on.
    server.child.stdin.write(`{"type":"attach","id":"again","agent":"${agent}","after":${before.at(-1) ?? 0}}\n`);
    const again = await waitStdout((r) => r.id === "again");
    expect(again).toMatchObject({ success: true, data: { agent } });
    server.child.stdin.end();
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });
});
