/**
 * Session files Atomic writes are files it can read back, kept private, and a failure to write
 * them reaches the client: user strings stored in them are capped, they are created 0600 in
 * 0700 folders, they are read as a stream of lines, and an unwritable session dir or a failing
 * write is reported as a `session_write_error` event and in `get_state`, not only on stderr.
 */
import { closeSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RpcClient, runCli, tempDir, textTurn, writeCassette } from "./helpers/rpc-client.js";
import { SOAK } from "./helpers/soak.js";

let client: RpcClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

/** A persistent session on a one-turn cassette. */
function start(options: { extraArgs?: string[]; launcher?: string[]; env?: Record<string, string> } = {}): RpcClient {
  const agentDir = tempDir("atomic-agent-");
  writeCassette(agentDir, "chat", [textTurn("Hello there.")]);
  client = new RpcClient({
    agentDir,
    args: ["--mode", "rpc", "--provider", "replay", "--model", "chat", ...(options.extraArgs ?? [])],
    ...(options.launcher ? { launcher: options.launcher } : {}),
    ...(options.env ? { env: options.env } : {}),
  });
  return client;
}

const TS = "2026-01-01T00:00:00.000Z";

/** A session file of about `bytes` bytes: a header, then entries from `entry(i)` until it is that big. */
function writeBigSession(path: string, bytes: number, entry: (i: number) => object): number {
  const fd = openSync(path, "w");
  writeSync(fd, JSON.stringify({ type: "session", version: 1, id: "big", timestamp: TS, cwd: "/tmp" }) + "\n");
  let written = 0;
  let count = 0;
  let lines: string[] = [];
  let held = 0;
  while (written < bytes) {
    const line =
      JSON.stringify({ id: count.toString(16).padStart(8, "0"), parentId: count === 0 ? null : (count - 1).toString(16).padStart(8, "0"), timestamp: TS, ...entry(count) }) + "\n";
    count++;
    lines.push(line);
    held += line.length;
    written += line.length;
    if (held >= 8 * 1024 * 1024) {
      writeSync(fd, lines.length === 1 ? lines[0]! : lines.join(""));
      lines = [];
      held = 0;
    }
  }
  if (lines.length > 0) writeSync(fd, lines.join(""));
  closeSync(fd);
  return count;
}

const chatEntry = (i: number) => ({
  type: "message",
  message:
    i % 2 === 0
      ? { role: "user", content: `question ${i} about the code in src/app.ts`, timestamp: i }
      : {
          role: "assistant",
          content: [{ type: "text", text: `answer ${i}: look at the **handler**` }],
          api: "replay",
          provider: "replay",
          model: "chat",
          usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
          stopReason: "stop",
          timestamp: i,
        },
});

/** Until `agent_settled`: by then the session file holds every entry of the prompt. */
async function promptAndWait(c: RpcClient, message: string): Promise<void> {
  await c.ok({ type: "set_event_options", agentSettled: true });
  const from = c.records.length;
  await c.ok({ type: "prompt", message });
  await c.waitForEvent("agent_settled", 10_000, from);
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
    // The file in the way is named (lib/make-folder), not a bare ENOTDIR.
    expect(String(event!.error)).toContain(`${blocker} is not a folder`);
    expect((await c.ok({ type: "get_state" })).sessionWriteError).toContain(`${blocker} is not a folder`);

    // Fixed: the next write creates the folder, writes what was kept, and the error is gone.
    rmSync(blocker);
    await promptAndWait(c, "again");
    // The write runs after the run's last event: wait for it (bounded).
    for (let tries = 0; (await c.ok({ type: "get_state" })).sessionWriteError !== undefined; tries++) {
      if (tries > 100) throw new Error("sessionWriteError did not clear after the folder was fixed");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const { entries } = await c.ok({ type: "get_entries" });
    const onDisk = readFileSync(state.sessionFile, "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => JSON.parse(line).id);
    expect(onDisk).toEqual(entries.map((entry: { id: string }) => entry.id));
  });

  it("keeps saying so for a new session in the same unwritable dir", async () => {
    const blocker = join(tempDir("atomic-cwd-"), "a-file");
    writeFileSync(blocker, "not a folder");
    const c = start({ extraArgs: ["--session-dir", join(blocker, "sessions")] });
    const first = await c.ok({ type: "get_state" });
    await c.ok({ type: "new_session" });
    const second = await c.ok({ type: "get_state" });
    expect(second.sessionFile).not.toBe(first.sessionFile);
    expect(second.sessionWriteError).toBe(first.sessionWriteError);
  });

  it("print mode prints the answer, then exits 1 saying the session was not saved", async () => {
    const blocker = join(tempDir("atomic-cwd-"), "a-file");
    writeFileSync(blocker, "not a folder");
    const agentDir = tempDir("atomic-agent-");
    writeCassette(agentDir, "chat", [textTurn("Answered.")]);
    const run = await runCli(["-p", "--provider", "replay", "--model", "chat", "--session-dir", join(blocker, "sessions"), "hi"], { agentDir, cwd: tempDir("atomic-cwd-") });
    expect(run).toMatchObject({ code: 1, stdout: "Answered.\n" });
    expect(run.stderr).toMatch(/\natomic: the session was not saved: .*a-file/);
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

describe("what the client was told is in the file", () => {
  const ROUNDS = 6;

  /** The entries of a session file (complete lines; the header left out). */
  function entriesOf(file: string): Record<string, unknown>[] {
    return readFileSync(file, "utf8")
      .split("\n")
      .filter(Boolean)
      .slice(1)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  it("prompt, new_session, prompt, agent_end, get_state, list_sessions: both sessions are listed, every round", async () => {
    const agentDir = tempDir("atomic-agent-");
    writeCassette(
      agentDir,
      "chat",
      Array.from({ length: 2 * ROUNDS }, (_, i) => textTurn(`Answer ${i}.`)),
    );
    const c = new RpcClient({ agentDir, args: ["--mode", "rpc", "--provider", "replay", "--model", "chat"] });
    client = c;
    for (let round = 0; round < ROUNDS; round++) {
      let from = c.records.length;
      await c.ok({ type: "prompt", message: `first ${round}` });
      await c.waitForEvent("agent_end", 10_000, from);
      const first = (await c.ok({ type: "get_state" })).sessionFile;
      await c.ok({ type: "new_session" });
      from = c.records.length;
      await c.ok({ type: "prompt", message: `second ${round}` });
      const ended = await c.waitForEvent("agent_end", 10_000, from);
      // As a client does on agent_end: both questions at once.
      const [{ sessionFile }, list] = await Promise.all([c.ok({ type: "get_state" }), c.ok({ type: "list_sessions" })]);
      expect(
        list.sessions.map((s: { path: string }) => s.path),
        `round ${round}`,
      ).toEqual(expect.arrayContaining([first, sessionFile]));
      // Told the run ended: its messages are in the file.
      expect(
        entriesOf(sessionFile).filter((e) => e.type === "message"),
        `round ${round}`,
      ).toHaveLength((ended.messages as unknown[]).length);
      await c.ok({ type: "new_session" });
    }
  });

  it("a name or a thinking level is in the file by the command's response", async () => {
    const agentDir = tempDir("atomic-agent-");
    writeCassette(agentDir, "chat", [textTurn("Hello there.")], { reasoning: true });
    const c = new RpcClient({ agentDir, args: ["--mode", "rpc", "--provider", "replay", "--model", "chat"] });
    client = c;
    await promptAndWait(c, "hello");
    const { sessionFile } = await c.ok({ type: "get_state" });
    for (let round = 0; round < ROUNDS; round++) {
      await c.ok({ type: "set_session_name", name: `name ${round}` });
      expect(entriesOf(sessionFile).at(-1), `round ${round}`).toMatchObject({ type: "session_info", name: `name ${round}` });
      const level = round % 2 === 0 ? "high" : "low";
      await c.ok({ type: "set_thinking_level", level });
      expect(entriesOf(sessionFile).at(-1), `round ${round}`).toMatchObject({ type: "thinking_level_change", thinkingLevel: level });
    }
  });
});

describe("large session files load, or fail saying why", () => {
  it("refuses a file the heap cannot hold with a message naming the size and the fix, instead of crashing", async () => {
    const dir = tempDir("atomic-cwd-");
    const file = join(dir, "big.jsonl");
    writeBigSession(file, 120 * 1024 * 1024, chatEntry);
    const c = start({ env: { NODE_OPTIONS: "--max-old-space-size=64" } });
    const response = await c.request({ type: "switch_session", sessionPath: file }, 60_000);
    expect(response.success).toBe(false);
    expect(response.error).toMatch(
      new RegExp(
        `^Cannot load session file ${file}: it is 120\\.0MB, more than this process can hold in memory \\(.*heap.*\\)\\. Start Atomic with NODE_OPTIONS=--max-old-space-size=\\d+ to open it\\.$`,
      ),
    );
    expect((await c.request({ type: "get_state" })).success).toBe(true);
  }, 60_000);

  it.runIf(SOAK)(
    "loads a 1 GB session (or says why it cannot)",
    async () => {
      const dir = tempDir("atomic-cwd-");
      const file = join(dir, "huge.jsonl");
      const count = writeBigSession(file, 1024 * 1024 * 1024, chatEntry);
      const c = start();
      const response = await c.request({ type: "switch_session", sessionPath: file }, 600_000);
      if (response.success) expect((await c.ok({ type: "get_session_stats" }, 600_000)).totalMessages).toBe(count);
      else expect(response.error).toMatch(/more than this process can hold in memory/);
    },
    900_000,
  );

  it.runIf(SOAK)(
    "loads a 600 MB session made of six 100 MB lines (it used to fail with Invalid string length)",
    async () => {
      const dir = tempDir("atomic-cwd-");
      const file = join(dir, "names.jsonl");
      const count = writeBigSession(file, 600 * 1024 * 1024, () => ({ type: "session_info", name: "n".repeat(100 * 1024 * 1024) }));
      expect(count).toBe(6);
      const c = start();
      await c.ok({ type: "switch_session", sessionPath: file }, 600_000);
      expect((await c.ok({ type: "get_state" })).sessionName).toHaveLength(100 * 1024 * 1024);
    },
    900_000,
  );

  it.runIf(SOAK)(
    "refuses a line over 256 MiB, naming it",
    async () => {
      const dir = tempDir("atomic-cwd-");
      const file = join(dir, "line.jsonl");
      writeBigSession(file, 257 * 1024 * 1024, () => ({ type: "session_info", name: "n".repeat(257 * 1024 * 1024) }));
      const c = start();
      const response = await c.request({ type: "switch_session", sessionPath: file }, 600_000);
      expect(response).toMatchObject({ success: false, error: `Cannot load session file ${file}: line 2 is over 256.0MB, the most one entry may take` });
    },
    900_000,
  );
});
