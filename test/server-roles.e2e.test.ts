/**
 * `atomic serve`: what a connection may send (docs/server.md, Envelope, Many clients). An
 * unknown command is said to be unknown, not routed; `detach` and `agent_close` without `agent`
 * go to the connection's only attached agent; an observer acts on nothing it observes, and a
 * connection that only observes opens, closes and shuts down nothing.
 */
import { describe, expect, it } from "vitest";
import { ServerProcess } from "./helpers/server.js";

describe("atomic serve: commands and roles", { timeout: 60_000 }, () => {
  it("an unknown command is unknown, with a did-you-mean; a known one without an agent is missing_agent", async () => {
    const server = await ServerProcess.start();
    const client = await server.connect();
    client.write('{"id":1,"type":"agent_opne","cwd":"/tmp"}\n');
    const typo = await client.waitFor((r) => r.type === "response" && r.id === 1);
    expect(typo).toEqual({ id: 1, type: "response", command: "agent_opne", success: false, error: 'Unknown command: agent_opne. Did you mean "agent_open"?' });
    expect(await client.request({ type: "no_such_thing" })).toMatchObject({ success: false, error: "Unknown command: no_such_thing" });
    expect(await client.request({ type: "get_state" })).toMatchObject({ success: false, code: "missing_agent" });
    // Attached to one agent: the agent answers it, in order with what was sent before, in the
    // fixed words of `--mode rpc` (an old client through `--connect` matches them exactly).
    const { agent } = await client.ok({ type: "agent_open" });
    expect(await client.request({ type: "get_stat" })).toEqual(expect.objectContaining({ success: false, agent, error: "Unknown command: get_stat" }));
  });

  it("detach and agent_close without agent: the connection's only attached agent", async () => {
    const server = await ServerProcess.start();
    const client = await server.connect();
    const { agent } = await client.ok({ type: "agent_open" });
    expect(await client.ok({ type: "detach" })).toEqual({ agent });
    expect(await client.request({ type: "detach" })).toMatchObject({ success: false, code: "missing_agent" });
    await client.ok({ type: "attach", agent });
    expect(await client.ok({ type: "agent_close" })).toEqual({ agent });
    expect(await client.request({ type: "agent_close" })).toMatchObject({ success: false, code: "missing_agent" });
    const [one, two] = [(await client.ok({ type: "agent_open" })).agent, (await client.ok({ type: "agent_open" })).agent];
    expect(await client.request({ type: "agent_close" })).toMatchObject({ success: false, code: "missing_agent", error: expect.stringContaining("attached to 2 agents") });
    expect((await client.ok({ type: "agent_list" })).agents.map((entry: { agent: string }) => entry.agent)).toEqual([one, two]);
  });

  it("an observer acts on nothing it observes; a connection that only observes opens, closes and shuts down nothing", async () => {
    const server = await ServerProcess.start();
    const owner = await server.connect();
    const observer = await server.connect();
    const watched = (await owner.ok({ type: "agent_open" })).agent;
    const other = (await owner.ok({ type: "agent_open" })).agent;
    await observer.ok({ type: "attach", agent: watched, role: "observe" });
    const unauthorized = { success: false, code: "unauthorized" };
    expect(await observer.request({ type: "agent_close", agent: watched })).toMatchObject({ ...unauthorized, agent: watched });
    expect(await observer.request({ type: "agent_close" })).toMatchObject({ ...unauthorized, agent: watched });
    expect(await observer.request({ type: "attach", agent: watched })).toMatchObject({ ...unauthorized, error: expect.stringContaining('"role": "observe"') });
    expect(await observer.request({ type: "agent_close", agent: other })).toMatchObject({ ...unauthorized, agent: other });
    expect(await observer.request({ type: "prompt", agent: other, message: "hi" })).toMatchObject({ ...unauthorized, agent: other });
    expect(await observer.request({ type: "attach", agent: other })).toMatchObject(unauthorized);
    expect(await observer.request({ type: "agent_open" })).toMatchObject({ ...unauthorized, error: expect.stringContaining("only observes") });
    expect(await observer.request({ type: "server_shutdown" })).toMatchObject(unauthorized);
    // Reading stays open to it: server commands that change nothing, get_* of any agent, attaching to watch.
    expect(await observer.ok({ type: "server_info" })).toMatchObject({ counts: { agents: 2 } });
    expect((await observer.ok({ type: "agent_list" })).agents).toHaveLength(2);
    expect(await observer.request({ type: "get_state", agent: other })).toMatchObject({ success: true, agent: other });
    expect(await observer.ok({ type: "attach", agent: other, role: "observe" })).toMatchObject({ agent: other });
    expect(await observer.ok({ type: "detach", agent: other })).toEqual({ agent: other });
    expect((await owner.ok({ type: "agent_list" })).agents).toHaveLength(2);

    // A controller of one agent that observes another: each agent by its own attachment.
    const mixed = await server.connect();
    await mixed.ok({ type: "attach", agent: other });
    await mixed.ok({ type: "attach", agent: watched, role: "observe" });
    expect(await mixed.request({ type: "agent_close", agent: watched })).toMatchObject({ ...unauthorized, agent: watched });
    // Downgrading is no risk: control of `other` becomes observe.
    expect(await mixed.ok({ type: "attach", agent: other, role: "observe" })).toMatchObject({ agent: other });
    expect(await mixed.request({ type: "agent_close", agent: other })).toMatchObject(unauthorized);
    expect(await owner.ok({ type: "agent_close", agent: other })).toEqual({ agent: other });
    expect(server.child.exitCode).toBeNull();
  });
});
