/**
 * `atomic serve` and the session lock across processes (issues 34 and 41): a session file a plain
 * `--mode rpc` process or another server holds is `session_in_use` for `agent_open`,
 * `switch_session` and the reload of an unloaded agent; a file a served agent holds refuses a
 * plain `--mode rpc` process.
 */
import { describe, expect, it } from "vitest";
import { RpcClient } from "./helpers/rpc-client.js";
import { REPLAY_ARGS, ServerProcess, type ServerClient } from "./helpers/server.js";

async function settled(client: ServerClient, agent: string): Promise<void> {
  const from = client.records.length;
  await client.ok({ type: "prompt", agent, message: "hello" });
  await client.waitFor((r) => r.agent === agent && r.type === "agent_settled", 30_000, from);
}

/** A plain `--mode rpc` process on the server's agent dir; `--session` when given. */
function plain(server: ServerProcess, session?: string): RpcClient {
  return new RpcClient({ agentDir: server.agentDir, cwd: server.cwd, args: ["--mode", "rpc", ...REPLAY_ARGS, ...(session ? ["--session", session] : [])] });
}

const inUse = (file: string) => ({ success: false, code: "session_in_use", error: expect.stringContaining(`Session file ${file} is in use by another process`) });

describe("atomic serve: the session lock across processes", { timeout: 90_000 }, () => {
  it("a file another process holds is session_in_use for agent_open, switch_session and a reload; a served agent's file refuses a plain process", async () => {
    const server = await ServerProcess.start({ settings: { serve: { idleUnloadMs: 200 } } });
    const client = await server.connect();
    const served = await client.ok({ type: "agent_open" });
    await settled(client, served.agent);

    // A served agent holds its file: a plain --mode rpc process on it is refused.
    const refused = plain(server, served.sessionFile);
    expect((await refused.exited).code).not.toBe(0);
    expect(refused.stderr).toContain(`Session file ${served.sessionFile} is in use by another process (pid ${server.child.pid}`);

    // A plain process holds another file: the server cannot open it, nor switch an agent to it.
    const other = plain(server);
    const otherFile = String((await other.ok({ type: "get_state" })).sessionFile);
    await other.ok({ type: "prompt", message: "mine" });
    await other.waitForEvent("agent_settled");
    expect(await client.request({ type: "agent_open", resume: otherFile })).toMatchObject(inUse(otherFile));
    expect(await client.request({ type: "switch_session", agent: served.agent, sessionPath: otherFile })).toMatchObject({ ...inUse(otherFile), agent: served.agent });
    expect(await client.ok({ type: "get_state", agent: served.agent })).toMatchObject({ sessionFile: served.sessionFile });

    // A second server (its own agent dir and socket) is refused the same way.
    const second = await ServerProcess.start();
    const secondClient = await second.connect();
    expect(await secondClient.request({ type: "agent_open", resume: served.sessionFile })).toMatchObject({
      success: false,
      code: "session_in_use",
      error: expect.stringContaining(`(pid ${server.child.pid}`),
    });

    // An unloaded agent whose file a plain process took meanwhile: its reload is session_in_use, until that process ends.
    await client.ok({ type: "detach", agent: served.agent });
    await expect.poll(async () => (await client.ok({ type: "agent_list" })).agents[0].status, { timeout: 20_000 }).toBe("notLoaded");
    const taker = plain(server, served.sessionFile);
    await taker.ok({ type: "get_state" });
    const reload = await client.request({ type: "get_state", agent: served.agent });
    expect(reload).toMatchObject({ ...inUse(served.sessionFile), agent: served.agent });
    // The lock's own words: no host label, no flag the client never gave.
    expect(String(reload.error).startsWith(`Session file ${served.sessionFile} is in use by another process (pid `)).toBe(true);
    expect(reload.error).toMatch(/\): close it there first, or open another session$/);
    expect(await client.request({ type: "attach", agent: served.agent })).toMatchObject({ code: "session_in_use", error: reload.error });
    await taker.close();
    expect(await client.ok({ type: "get_state", agent: served.agent })).toMatchObject({ sessionFile: served.sessionFile });
    await other.close();
    await second.stop();
    await server.stop();
  });
});
