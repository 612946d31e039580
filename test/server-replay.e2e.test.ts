/**
 * `atomic serve`: attach, detach and replay (issue 34; docs/decisions.md, Attach and replay, Many
 * clients). `attach {after, epoch}` writes the missed events exactly once, then
 * `replay_complete`, then its response, then live events; a cursor the ring no longer holds, or
 * from another epoch, is a gap. Leaving never aborts a run or a bash command. Dialogs reach every
 * controller, the first answer wins, the others hear that it is gone, and a dialog still open is
 * handed to whoever attaches.
 */
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { Record_ } from "./helpers/rpc-client.js";
import { REPLAY_ARGS, ServerProcess, type ServerClient } from "./helpers/server.js";

const UI_PROBE = resolve(import.meta.dirname, "fixtures/extensions/ui-probe.ts");

function seqs(records: Record_[]): number[] {
  return records.filter((r) => typeof r.seq === "number" && r.type !== "replay_complete").map((r) => r.seq as number);
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

async function settledRun(client: ServerClient, agent: string, message = "hello"): Promise<number> {
  const from = client.records.length;
  await client.ok({ type: "prompt", agent, message });
  const settled = await client.waitFor((r) => r.agent === agent && r.type === "agent_settled", 30_000, from);
  return settled.seq as number;
}

describe("atomic serve: attach and replay", () => {
  it("replays the events after the cursor exactly once, then replay_complete, the response, and live events", async () => {
    const server = await ServerProcess.start();
    const owner = await server.connect();
    const { agent, epoch } = await owner.ok({ type: "agent_open" });
    const last = await settledRun(owner, agent);
    const late = await server.connect();
    const from = late.records.length;
    const attached = await late.request({ type: "attach", agent, after: 10, epoch });
    expect(attached).toMatchObject({ success: true, data: { agent, epoch, seq: last, replayed: last - 10, gap: false, pendingUi: [] } });
    const got = late.records.slice(from);
    expect(seqs(got)).toEqual(range(11, last));
    expect(got.at(-2)).toEqual({ type: "replay_complete", agent, seq: last });
    expect(got.at(-1)).toBe(attached);
    // The replayed records are the very records the owner received.
    expect(got.slice(0, -2)).toEqual(owner.events(agent).filter((r) => (r.seq as number) > 10));

    const next = await settledRun(owner, agent, "again");
    await late.waitFor((r) => r.agent === agent && r.seq === next, 30_000);
    expect(seqs(late.records.slice(from))).toEqual(range(11, next));
  });

  it("attaching in the middle of a run misses nothing and repeats nothing", async () => {
    const server = await ServerProcess.start();
    const owner = await server.connect();
    const { agent, epoch } = await owner.ok({ type: "agent_open" });
    await owner.ok({ type: "prompt", agent, message: "hello" });
    await owner.waitFor((r) => r.agent === agent && (r.seq as number) >= 20, 30_000);
    const late = await server.connect();
    const attached = await late.ok({ type: "attach", agent, after: 3, epoch });
    expect(attached.gap).toBe(false);
    expect(attached.replayed).toBeGreaterThanOrEqual(17);
    const settled = await late.waitFor((r) => r.agent === agent && r.type === "agent_settled", 30_000);
    expect(seqs(late.records)).toEqual(range(4, settled.seq as number));
  });

  it("a cursor older than the ring, from another epoch or ahead of the agent is a gap: nothing replayed", async () => {
    const server = await ServerProcess.start({ settings: { serve: { replayRecords: 10 } } });
    const owner = await server.connect();
    const { agent, epoch } = await owner.ok({ type: "agent_open" });
    const last = await settledRun(owner, agent);
    expect(last).toBeGreaterThan(20);
    const late = await server.connect();
    for (const cursor of [
      { after: 1, epoch },
      { after: last - 5, epoch: "another-epoch" },
      { after: last + 1, epoch },
    ]) {
      const from = late.records.length;
      expect(await late.ok({ type: "attach", agent, ...cursor })).toMatchObject({ gap: true, replayed: 0, seq: last });
      expect(late.records.slice(from).map((r) => r.type)).toEqual(["response"]);
    }
    const from = late.records.length;
    expect(await late.ok({ type: "attach", agent, after: last - 10, epoch })).toMatchObject({ gap: false, replayed: 10 });
    expect(seqs(late.records.slice(from))).toEqual(range(last - 9, last));
    const empty = late.records.length;
    expect(await late.ok({ type: "attach", agent, after: last })).toMatchObject({ gap: false, replayed: 0 });
    expect(late.records.slice(empty).map((r) => r.type)).toEqual(["replay_complete", "response"]);
  });

  it("a client that leaves never aborts the run or the bash command it started", async () => {
    const server = await ServerProcess.start();
    const first = await server.connect();
    const { agent } = await first.ok({ type: "agent_open" });
    first.send({ type: "bash", agent, command: "sleep 0.5; echo still-here" });
    await first.ok({ type: "prompt", agent, message: "hello" });
    first.socket.destroy();
    const second = await server.connect();
    await second.ok({ type: "attach", agent, after: 0 });
    const settled = await second.waitFor((r) => r.agent === agent && r.type === "agent_settled", 30_000);
    expect(settled.aborted).toBe(false);
    const { messages } = await second.ok({ type: "get_messages", agent });
    expect(JSON.stringify(messages)).toContain("still-here");
    expect(messages.some((m: { role: string; stopReason?: string }) => m.role === "assistant" && m.stopReason === "aborted")).toBe(false);

    // Detaching is the same: the run goes on.
    await second.ok({ type: "prompt", agent, message: "again" });
    await second.ok({ type: "detach", agent });
    const third = await server.connect();
    await third.ok({ type: "attach", agent, after: settled.seq as number });
    expect(await third.waitFor((r) => r.agent === agent && r.type === "agent_settled", 30_000)).toMatchObject({ aborted: false });
  });

  it("dialogs go to every controller; the first answer wins, the others hear extension_ui_resolved; an open one is handed to whoever attaches", async () => {
    const server = await ServerProcess.start({ args: [...REPLAY_ARGS, "-e", UI_PROBE] });
    const one = await server.connect();
    const two = await server.connect();
    const { agent } = await one.ok({ type: "agent_open" });
    await two.ok({ type: "attach", agent });
    const observer = await server.connect();
    await observer.ok({ type: "attach", agent, role: "observe" });

    one.send({ type: "prompt", agent, message: "/ask-confirm" });
    const isDialog = (r: Record_) => r.type === "extension_ui_request" && r.method === "confirm";
    const [asked, alsoAsked] = await Promise.all([one.waitFor(isDialog), two.waitFor(isDialog)]);
    expect(alsoAsked).toEqual(asked);
    expect(await observer.request({ type: "extension_ui_response", id: asked.id, confirmed: true })).toMatchObject({ success: false, code: "unauthorized" });

    const late = await server.connect();
    const attached = await late.ok({ type: "attach", agent });
    const { agent: _agent, seq: _seq, ...request } = asked;
    expect(attached.pendingUi).toEqual([request]);

    late.send({ type: "extension_ui_response", id: asked.id, confirmed: true });
    const outcome = (r: Record_) => r.type === "extension_ui_request" && r.method === "notify";
    expect(await one.waitFor(outcome)).toMatchObject({ message: "confirm=true" });
    for (const other of [one, two, observer])
      expect(await other.waitFor((r) => r.type === "extension_ui_resolved")).toEqual({ type: "extension_ui_resolved", agent, id: asked.id, reason: "answered" });
    // A late answer changes nothing and gets no response (a reply).
    const before = two.records.length;
    two.send({ type: "extension_ui_response", id: asked.id, confirmed: false });
    await two.ok({ type: "get_state", agent });
    expect(two.records.slice(before).map((r) => r.type)).toEqual(["response"]);
    expect(late.records.some((r) => r.type === "extension_ui_resolved")).toBe(false);
    expect((await late.ok({ type: "attach", agent })).pendingUi).toEqual([]);
  });

  it("a dialog that times out is announced to every client with its seq", async () => {
    const server = await ServerProcess.start({ args: [...REPLAY_ARGS, "-e", UI_PROBE] });
    const one = await server.connect();
    const two = await server.connect();
    const { agent } = await one.ok({ type: "agent_open" });
    await two.ok({ type: "attach", agent, role: "observe" });
    one.send({ type: "prompt", agent, message: "/ask-input 100" });
    const request = await two.waitFor((r) => r.type === "extension_ui_request" && r.method === "input");
    for (const client of [one, two]) {
      const resolved = await client.waitFor((r) => r.type === "extension_ui_resolved");
      expect(resolved).toEqual({ type: "extension_ui_resolved", agent, seq: (request.seq as number) + 1, id: request.id, reason: "timeout" });
    }
    expect((await one.ok({ type: "attach", agent })).pendingUi).toEqual([]);
  });
});
