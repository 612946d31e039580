/**
 * Session files Atomic writes are files it can read back, kept private, and a failure to write
 * them reaches the client: user strings stored in them are capped, they are created 0600 in
 * 0700 folders, they are read as a stream of lines, and an unwritable session dir or a failing
 * write is reported as a `session_write_error` event and in `get_state`, not only on stderr.
 */
import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RpcClient, tempDir, textTurn, writeCassette } from "./helpers/rpc-client.js";

let client: RpcClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

/** A persistent session on a one-turn cassette. */
function start(options: { extraArgs?: string[]; launcher?: string[] } = {}): RpcClient {
  const agentDir = tempDir("atomic-agent-");
  writeCassette(agentDir, "chat", [textTurn("Hello there.")]);
  client = new RpcClient({ agentDir, args: ["--mode", "rpc", "--provider", "replay", "--model", "chat", ...(options.extraArgs ?? [])], ...(options.launcher ? { launcher: options.launcher } : {}) });
  return client;
}

async function promptAndWait(c: RpcClient, message: string): Promise<void> {
  const from = c.records.length;
  await c.ok({ type: "prompt", message });
  await c.waitForEvent("agent_end", 10_000, from);
}

describe("user strings stored in session files are capped", () => {
  it("refuses an over-long session name or parent path with a clear error, and the file stays loadable", async () => {
    const c = start();
    await promptAndWait(c, "hello");
    const long = await c.request({ type: "set_session_name", name: "n".repeat(100 * 1024) });
    expect(long).toMatchObject({ success: false, error: "Session name is too long: 102400 characters (the limit is 256)" });
    await c.ok({ type: "set_session_name", name: "x".repeat(256) });
    const { sessionFile } = await c.ok({ type: "get_state" });
    const parent = await c.request({ type: "new_session", parentSession: "/p".repeat(5000) });
    expect(parent).toMatchObject({ success: false, error: "Invalid parentSession: expected a path of at most 4096 characters (got 10000)" });
    await c.ok({ type: "switch_session", sessionPath: sessionFile });
    expect((await c.ok({ type: "get_state" })).sessionName).toBe("x".repeat(256));
  });

  it("refuses an over-long --name at startup, saying why", async () => {
    const c = start({ extraArgs: ["--name", "n".repeat(300)] });
    expect((await c.exited).code).toBe(1);
    expect(c.stderr).toContain("Session name is too long: 300 characters (the limit is 256)");
  });
});

describe("session files are private", () => {
  it("creates session files 0600 in folders created 0700", async () => {
    const c = start();
    await promptAndWait(c, "hello");
    const { sessionFile } = await c.ok({ type: "get_state" });
    expect(statSync(sessionFile).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(sessionFile)).mode & 0o777).toBe(0o700);
    expect(statSync(join(c.agentDir, "sessions")).mode & 0o777).toBe(0o700);
    const copy = join(c.cwd, "copy.jsonl");
    writeFileSync(copy, "");
    await c.ok({ type: "import_session", inputPath: sessionFile });
    expect(statSync((await c.ok({ type: "get_state" })).sessionFile).mode & 0o777).toBe(0o600);
  });
});

describe("session write failures reach the client", () => {
  it("says at startup that the session dir cannot be written, reports the first failed write as an event, and recovers without losing entries", async () => {
    const blocker = join(tempDir("atomic-cwd-"), "a-file");
    writeFileSync(blocker, "not a folder");
    const sessionDir = join(blocker, "sessions");
    const c = start({ extraArgs: ["--session-dir", sessionDir] });
    const state = await c.ok({ type: "get_state" });
    expect(state.sessionWriteError).toMatch(new RegExp(`^Cannot write sessions to ${sessionDir}: .*not a directory`));
    expect(c.stderr).toContain(`Cannot write sessions to ${sessionDir}`);
    const from = c.records.length;
    await promptAndWait(c, "hello");
    const event = c.records.slice(from).find((r) => r.type === "session_write_error");
    expect(event).toMatchObject({ sessionFile: state.sessionFile });
    expect(String(event!.error)).toMatch(/ENOTDIR/);
    expect((await c.ok({ type: "get_state" })).sessionWriteError).toMatch(/ENOTDIR/);

    // Fixed: the next write creates the folder, writes what was kept, and the error is gone.
    rmSync(blocker);
    await promptAndWait(c, "again");
    // The write runs after the run's last event: wait for it (bounded).
    for (let tries = 0; (await c.ok({ type: "get_state" })).sessionWriteError !== undefined; tries++) {
      if (tries > 100) throw new Error("sessionWriteError did not clear after the folder was fixed");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const { entries } = await c.ok({ type: "get_entries" });
    const onDisk = readFileSync(state.sessionFile, "utf8").trim().split("\n").slice(1).map((line) => JSON.parse(line).id);
    expect(onDisk).toEqual(entries.map((entry: { id: string }) => entry.id));
  });

  it.skipIf(process.platform === "win32")("reports a write that fails mid-session (file size limit, as on a full disk) once, and in get_state", async () => {
    // 64 blocks of 512 bytes: the first exchange fits, a 40 KB prompt does not.
    const c = start({ launcher: ["sh", "-c", 'ulimit -f 64 && exec "$0" "$@"'] });
    await promptAndWait(c, "hello");
    expect((await c.ok({ type: "get_state" })).sessionWriteError).toBeUndefined();
    const from = c.records.length;
    await promptAndWait(c, "x".repeat(40_000));
    await promptAndWait(c, "y".repeat(40_000));
    const events = c.records.slice(from).filter((r) => r.type === "session_write_error");
    const { sessionFile, sessionWriteError } = await c.ok({ type: "get_state" });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ sessionFile });
    expect(String(events[0]!.error)).toMatch(/EFBIG/);
    expect(sessionWriteError).toMatch(/EFBIG/);
  });
});
