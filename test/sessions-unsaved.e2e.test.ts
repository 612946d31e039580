/**
 * A session whose last entries could not be written (the session folder is blocked) is not
 * left, over the built CLI: new_session, switch_session, fork and clone are refused, saying why,
 * until the entries are in the file; then the session is left with nothing lost. `compact` on
 * such a session (its file never written) says why, and compacts once the folder is fixed.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RpcClient, tempDir, textTurn, writeCassette, type Record_ } from "./helpers/rpc-client.js";

const clients: RpcClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

/** An agent on the `chat` cassette whose session folder cannot be made: a regular file stands where its parent should be. */
function blockedAgent(agentDir: string): { c: RpcClient; blocker: string } {
  const blocker = join(tempDir("atomic-cwd-"), "a-file");
  writeFileSync(blocker, "not a folder");
  const c = new RpcClient({ agentDir, args: ["--mode", "rpc", "--provider", "replay", "--model", "chat", "--session-dir", join(blocker, "sessions")] });
  clients.push(c);
  return { c, blocker };
}

describe("leaving a session whose entries are not saved", () => {
  it("is refused with the file and the reason while the folder is blocked; once fixed the session is left and its file holds every entry", async () => {
    const agentDir = tempDir("atomic-agent-");
    writeCassette(agentDir, "chat", [textTurn("Hello there.")]);
    const { c, blocker } = blockedAgent(agentDir);
    const from = c.records.length;
    await c.ok({ type: "prompt", message: "precious words" });
    await c.waitForEvent("agent_end", 10_000, from);
    const before = await c.ok({ type: "get_state" });
    const userEntry = (await c.ok({ type: "get_fork_messages" })).messages[0].entryId as string;

    const other = join(c.cwd, "other.jsonl");
    writeFileSync(other, `${JSON.stringify({ type: "session", version: 1, id: "other", timestamp: "2026-01-01T00:00:00.000Z", cwd: c.cwd })}\n`);
    for (const command of [{ type: "new_session" }, { type: "switch_session", sessionPath: other }, { type: "fork", entryId: userEntry }, { type: "clone" }]) {
      const response = await c.request(command);
      expect(response.success).toBe(false);
      expect(String(response.error)).toMatch(/^Cannot leave the session: some of its entries are not saved to /);
      expect(String(response.error)).toContain(before.sessionFile);
      expect(String(response.error)).toContain(`${blocker} is not a folder`);
    }
    // Its own file is not on disk yet: named as missing, not as a bare ENOTDIR.
    expect(await c.request({ type: "switch_session", sessionPath: before.sessionFile })).toMatchObject({ success: false, error: `Session file not found: ${before.sessionFile}` });
    expect(await c.ok({ type: "get_state" })).toMatchObject({ sessionId: before.sessionId, sessionFile: before.sessionFile, messageCount: 2 });
    expect(existsSync(before.sessionFile)).toBe(false);

    rmSync(blocker);
    expect(await c.ok({ type: "new_session" })).toEqual({ cancelled: false });
    expect((await c.ok({ type: "get_state" })).sessionId).not.toBe(before.sessionId);
    const saved = readFileSync(before.sessionFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record_);
    expect(saved.map((entry) => entry.type)).toEqual(["session", "message", "message"]);
    expect(JSON.stringify(saved[1])).toContain("precious words");
  });

  it("compact on a session whose file was never written says why (not that the file no longer exists), and compacts once it can be written", async () => {
    const agentDir = tempDir("atomic-agent-");
    const long = Array.from({ length: 30 }, (_, i) => `line ${i}: the reply goes on`).join("\n");
    // The planner's prompt holds the reply's lines: its tape deletes some; the chat gets the long reply.
    const turn = (text: string) => [{ type: "turn" }, ...textTurn(text)];
    const tapes = [{ type: "cassette", version: 1, name: "chat" }, { type: "tape", when: "the reply goes on" }, ...turn("1,10"), { type: "tape" }, ...turn(long)];
    mkdirSync(join(agentDir, "cassettes"), { recursive: true });
    writeFileSync(join(agentDir, "cassettes", "chat.jsonl"), tapes.map((line) => JSON.stringify(line)).join("\n") + "\n");
    const { c, blocker } = blockedAgent(agentDir);
    const from = c.records.length;
    await c.ok({ type: "prompt", message: "tell me everything" });
    await c.waitForEvent("agent_end", 10_000, from);
    const { sessionFile } = await c.ok({ type: "get_state" });
    const refused = await c.request({ type: "compact", preserve_recent: 0 });
    expect(refused.success).toBe(false);
    expect(refused.error).toBe(
      `Compaction failed: the session file ${sessionFile} has not been written yet (${blocker} is not a folder): they are kept in memory, and compacting waits until they are saved`,
    );
    expect(existsSync(sessionFile)).toBe(false);

    rmSync(blocker);
    const compacted = await c.ok({ type: "compact", preserve_recent: 0 });
    expect(compacted.rung).toBe("planned");
    const saved = readFileSync(sessionFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record_);
    expect(saved.map((entry) => entry.type)).toEqual(["session", "message", "message", "compaction"]);
  });
});
