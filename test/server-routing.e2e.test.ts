/**
 * `atomic serve` over a real unix socket (issue 34; docs/decisions.md, Server mode): the first
 * record, the server commands, the `agent` routing field and its error codes, ids echoed to the
 * sender alone, `seq` on every event, two agents prompted at once kept apart, events fanned out
 * to every attached client, per-connection event options, and bad input answered with a coded
 * error that never reaches another client's agent.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ServerProcess, tempDir, type ServerClient } from "./helpers/server.js";
import type { Record_ } from "./helpers/rpc-client.js";

const HANDLE = /^a_[a-z2-7]{10}$/;

/** Sends a prompt to `agent` and resolves once its `agent_settled` arrives. */
async function prompt(client: ServerClient, agent: string, message = "hello"): Promise<void> {
  const from = client.records.length;
  expect(await client.request({ type: "prompt", agent, message })).toMatchObject({ success: true, agent });
  await client.waitFor((r) => r.agent === agent && r.type === "agent_settled", 30_000, from);
}

function seqsOf(events: Record_[]): number[] {
  return events.map((r) => r.seq as number);
}

describe("atomic serve: routing", () => {
  it("greets each connection, answers server_info, opens agents and lists them", async () => {
    const server = await ServerProcess.start();
    const client = await server.connect();
    const hello = client.records[0]!;
    expect(hello).toMatchObject({ type: "server_hello", protocol: 1, version: expect.any(String), epoch: expect.any(String) });
    const info = await client.ok({ type: "server_info" });
    expect(info).toMatchObject({ protocol: 1, pid: server.child.pid, epoch: hello.epoch, listeners: [`unix:${server.socket}`], counts: { agents: 0, loaded: 0, connections: 1 } });
    expect(info.limits).toEqual({ maxAgents: 32, maxConnections: 64, idleUnloadMs: 1_800_000, replayRecords: 4096, replayBytes: 16_777_216, outboundBytes: 8_388_608 });

    const opened = await client.ok({ type: "agent_open", name: "first" });
    expect(opened).toMatchObject({
      agent: expect.stringMatching(HANDLE),
      sessionId: expect.any(String),
      sessionFile: expect.stringContaining(server.agentDir),
      cwd: server.cwd,
      epoch: hello.epoch,
    });
    const state = await client.request({ type: "get_state", agent: opened.agent });
    expect(state).toMatchObject({ type: "response", command: "get_state", success: true, agent: opened.agent, data: { sessionId: opened.sessionId } });
    // Without `agent`: the connection's only attached agent (the opener is attached).
    expect(await client.request({ type: "get_state" })).toMatchObject({ success: true, agent: opened.agent });

    const list = await client.ok({ type: "agent_list" });
    expect(list.agents).toEqual([
      { agent: opened.agent, name: "first", cwd: server.cwd, sessionId: opened.sessionId, sessionFile: opened.sessionFile, status: "idle", attached: 1, seq: opened.seq },
    ]);
    expect((await client.ok({ type: "server_info" })).counts).toEqual({ agents: 1, loaded: 1, connections: 1 });
  });

  it("codes its own failures: unknown_agent, missing_agent, not_attached, invalid_request", async () => {
    const server = await ServerProcess.start();
    const client = await server.connect();
    expect(await client.request({ type: "get_state" })).toMatchObject({
      success: false,
      code: "missing_agent",
      error: expect.stringContaining('attached to none (open one with {"type":"agent_open"}'),
    });
    expect(await client.request({ type: "get_state", agent: "a_aaaaaaaaaa" })).toMatchObject({
      success: false,
      code: "unknown_agent",
      error: "Unknown agent: a_aaaaaaaaaa",
      agent: "a_aaaaaaaaaa",
    });
    expect(await client.request({ type: "get_state", agent: 7 })).toMatchObject({ success: false, code: "invalid_request", error: "Invalid agent: expected string" });
    expect(await client.request({ type: "attach" })).toMatchObject({ success: false, command: "attach", code: "invalid_request", error: "Invalid agent: expected string" });
    expect(await client.request({ type: "agent_open", cwd: "relative/dir" })).toMatchObject({
      success: false,
      code: "invalid_request",
      error: expect.stringContaining("absolute path"),
    });
    expect(await client.request({ type: "agent_open", model: "nope/nothing" })).toMatchObject({ success: false, code: "invalid_request", error: expect.stringContaining("nope") });

    const a = (await client.ok({ type: "agent_open" })).agent;
    const b = (await client.ok({ type: "agent_open" })).agent;
    expect(await client.request({ type: "get_state" })).toMatchObject({ success: false, code: "missing_agent", error: expect.stringContaining("attached to 2 agents") });
    expect(await client.ok({ type: "detach", agent: a })).toEqual({ agent: a });
    expect(await client.request({ type: "detach", agent: a })).toMatchObject({ success: false, code: "not_attached" });
    expect(await client.request({ type: "get_state" })).toMatchObject({ success: true, agent: b });
    // A control connection may still send to an agent it is not attached to.
    expect(await client.request({ type: "get_state", agent: a })).toMatchObject({ success: true, agent: a });

    // Seed errors keep their text and get no code.
    expect(await client.request({ type: "no_such_command", agent: a })).toMatchObject({ success: false, error: "Unknown command: no_such_command", agent: a });
    expect((await client.request({ type: "no_such_command", agent: a })).code).toBeUndefined();
  });

  it("agent_open's provider, model, thinkingLevel and resume errors name the request's fields, not the flags", async () => {
    const server = await ServerProcess.start();
    const client = await server.connect();
    expect(await client.request({ type: "agent_open", provider: "nosuch" })).toMatchObject({
      success: false,
      command: "agent_open",
      code: "invalid_request",
      error: expect.stringMatching(/^Unknown provider "nosuch" \(the "provider" field of agent_open\)\. Known providers: .*replay/),
    });
    expect(await client.request({ type: "agent_open", model: "nope/nothing" })).toMatchObject({
      success: false,
      code: "invalid_request",
      error: expect.stringMatching(/^No model matches the "model" field of agent_open "nope\/nothing"\./),
    });
    expect(await client.request({ type: "agent_open", thinkingLevel: "extreme" })).toMatchObject({
      success: false,
      code: "invalid_request",
      error: expect.stringMatching(/^Invalid thinking level "extreme" for the "thinkingLevel" field of agent_open\. Valid levels: /),
    });
    expect(await client.request({ type: "agent_open", resume: "zzzz" })).toMatchObject({
      success: false,
      code: "invalid_request",
      error: 'No session found matching "zzzz" (the "resume" field of agent_open): no such file, and no session id starts with it',
    });
    expect(await client.ok({ type: "agent_open", provider: "replay", model: "demo", thinkingLevel: "off" })).toMatchObject({ agent: expect.stringMatching(HANDLE) });
  });

  it("echoes ids exactly to the sender alone; a line that is no command is a coded parse error", async () => {
    const server = await ServerProcess.start();
    const one = await server.connect();
    const two = await server.connect();
    const agent = (await one.ok({ type: "agent_open" })).agent;
    await two.ok({ type: "attach", agent });
    const before = two.records.length;
    one.write(`{"type":"get_state","agent":"${agent}","id":12345678901234567890}\n`);
    one.write(`{"type":"server_info","id":1.50}\n`);
    const big = await one.waitFor((r) => r.type === "response" && r.command === "get_state");
    const info = await one.waitFor((r) => r.type === "response" && r.command === "server_info");
    expect(big.id).toBe(12345678901234567890);
    expect(info.id).toBe(1.5);
    one.write("not json\n");
    expect(await one.waitFor((r) => r.command === "parse")).toMatchObject({ success: false, code: "invalid_request", error: expect.stringMatching(/^Failed to parse command: /) });
    one.write("[1,2]\n");
    expect(await one.waitFor((r) => r.command === "unknown")).toMatchObject({
      success: false,
      code: "invalid_request",
      error: 'Invalid command: expected a JSON object with a string "type"',
    });
    await one.ok({ type: "get_state", agent });
    expect(two.records.slice(before).filter((r) => r.type === "response")).toEqual([]);
  });

  it("two agents prompted at once stay apart: each its own folder, events, seq and session", async () => {
    const server = await ServerProcess.start();
    const client = await server.connect();
    const folders = [tempDir("atomic-left-"), tempDir("atomic-right-")];
    writeFileSync(join(folders[0]!, "left.txt"), "l");
    writeFileSync(join(folders[1]!, "right.txt"), "r");
    const [left, right] = await Promise.all(folders.map((cwd) => client.ok({ type: "agent_open", cwd })));
    await Promise.all([prompt(client, left.agent), prompt(client, right.agent)]);
    for (const [opened, own, other] of [
      [left, "left.txt", "right.txt"],
      [right, "right.txt", "left.txt"],
    ] as const) {
      const events = client.events(opened.agent);
      expect(seqsOf(events)).toEqual(events.map((_, index) => index + 1));
      const tool = events.find((r) => r.type === "tool_execution_end")!;
      expect(JSON.stringify(tool.result)).toContain(own);
      expect(JSON.stringify(tool.result)).not.toContain(other);
      expect(events.filter((r) => r.type === "agent_start")).toHaveLength(1);
    }
    const [l, r] = await Promise.all([left, right].map((opened) => client.ok({ type: "get_messages", agent: opened.agent })));
    expect(l.messages.length).toBeGreaterThan(1);
    expect(r.messages.length).toBe(l.messages.length);
    expect(left.sessionFile).not.toBe(right.sessionFile);
  });

  it("fans events out to every attached client; responses only to their sender; options per connection", async () => {
    const server = await ServerProcess.start();
    const owner = await server.connect();
    const watchers = await Promise.all([server.connect(), server.connect()]);
    const agent = (await owner.ok({ type: "agent_open" })).agent;
    for (const watcher of watchers) await watcher.ok({ type: "attach", agent });
    expect(await watchers[0]!.ok({ type: "set_event_options", messageUpdates: "delta", agentSettled: false })).toEqual({ messageUpdates: "delta", agentSettled: false });
    expect(await watchers[0]!.request({ type: "set_event_options", messageUpdates: "sometimes" })).toMatchObject({
      success: false,
      error: expect.stringContaining("messageUpdates"),
    });
    const starts = watchers.map((watcher) => watcher.records.length);
    await prompt(owner, agent);
    await watchers[1]!.waitFor((r) => r.type === "agent_settled" && r.agent === agent, 30_000, starts[1]);
    await watchers[0]!.waitFor((r) => r.type === "agent_end" && r.agent === agent, 30_000, starts[0]);
    const firstOfRun = owner.events(agent).find((e) => e.type === "agent_start")!.seq as number;
    const ownerEvents = owner.events(agent).filter((r) => (r.seq as number) >= firstOfRun);
    const full = watchers[1]!.events(agent, starts[1]);
    expect(seqsOf(full)).toEqual(seqsOf(ownerEvents));
    expect(full).toEqual(ownerEvents);
    const deltas = watchers[0]!.events(agent, starts[0]);
    expect(deltas.some((r) => r.type === "agent_settled")).toBe(false);
    const update = deltas.find((r) => r.type === "message_update")!;
    expect(update.message).toBeUndefined();
    expect((update.assistantMessageEvent as Record<string, unknown>).partial).toBeUndefined();
    expect(seqsOf(deltas)).toEqual(seqsOf(full).filter((seq) => full.find((r) => r.seq === seq)!.type !== "agent_settled"));
    expect(watchers.flatMap((watcher) => watcher.records.filter((r) => r.type === "response" && r.command === "prompt"))).toEqual([]);
  });

  it("observers may only read: get_* and list_sessions pass, anything else is unauthorized", async () => {
    const server = await ServerProcess.start();
    const owner = await server.connect();
    const observer = await server.connect();
    const agent = (await owner.ok({ type: "agent_open" })).agent;
    expect(await observer.ok({ type: "attach", agent, role: "observe" })).toMatchObject({ agent, gap: false, replayed: 0, pendingUi: [] });
    expect(await observer.request({ type: "get_state" })).toMatchObject({ success: true, agent });
    expect(await observer.request({ type: "list_sessions" })).toMatchObject({ success: true, agent });
    expect(await observer.request({ type: "prompt", message: "hi" })).toMatchObject({ success: false, code: "unauthorized", agent });
    expect(await observer.request({ type: "bash", command: "echo no" })).toMatchObject({ success: false, code: "unauthorized" });
    expect((await owner.ok({ type: "get_messages", agent })).messages).toEqual([]);
  });

  it("bad input never harms another client's agent: 10,000 commands for an agent a client does not have, then garbage", async () => {
    const server = await ServerProcess.start();
    const victim = await server.connect();
    const flooder = await server.connect();
    const agent = (await victim.ok({ type: "agent_open" })).agent;
    await flooder.ok({ type: "attach", agent, role: "observe" });
    const lines: string[] = [];
    for (let i = 0; i < 5_000; i++) lines.push(JSON.stringify({ type: "prompt", id: i, agent: "a_zzzzzzzzzz", message: "x" }));
    for (let i = 5_000; i < 10_000; i++) lines.push(JSON.stringify({ type: "abort", id: i, agent }));
    flooder.write(`${lines.join("\n")}\n`);
    flooder.write('{"type":"prompt","agent":{"nested":true}}\n{"type":\n\u0000\u0001garbage\n');
    await flooder.waitFor((r) => r.type === "response" && r.id === 9_999, 60_000);
    const answers = flooder.records.filter((r) => r.type === "response" && typeof r.id === "number");
    expect(answers).toHaveLength(10_000);
    expect(answers.filter((r) => r.code === "unknown_agent")).toHaveLength(5_000);
    expect(answers.filter((r) => r.code === "unauthorized")).toHaveLength(5_000);
    await flooder.waitFor((r) => r.command === "parse");
    await prompt(victim, agent);
    expect(victim.events(agent).some((r) => r.type === "agent_end")).toBe(true);
    expect(victim.records.filter((r) => r.type === "response" && r.command === "abort")).toEqual([]);
  });
});
