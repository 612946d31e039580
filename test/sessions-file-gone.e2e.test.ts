/**
 * A session file deleted, moved away or replaced while the agent writes it, over the built CLI.
 * Deleted or moved away: the agent used to keep appending to the unlinked file, so everything
 * said after that was lost without a word; now the whole session is written again at its path
 * and the client hears it (session_write_error). Replaced by another file: that file is left as
 * it is, the session's entries stay in memory (leaving refused) until the path is free again.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RpcClient, tempDir, textTurn, writeCassette, type Record_ } from "./helpers/rpc-client.js";

const clients: RpcClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function start(): RpcClient {
  const agentDir = tempDir("atomic-agent-");
  writeCassette(agentDir, "chat", [textTurn("An answer.")]);
  const c = new RpcClient({ agentDir, args: ["--mode", "rpc", "--provider", "replay", "--model", "chat"] });
  clients.push(c);
  return c;
}

async function turn(c: RpcClient, message: string): Promise<void> {
  const from = c.records.length;
  await c.ok({ type: "prompt", message });
  await c.waitForEvent("agent_end", 20_000, from);
}

function lines(file: string): Record_[] {
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record_);
}

function texts(entries: Record_[]): string[] {
  return entries.filter((e) => e.type === "message").map((e) => JSON.stringify((e.message as Record_).content));
}

const writeErrors = (c: RpcClient, from: number) => c.records.slice(from).filter((r) => r.type === "session_write_error");

describe("a session file that is no longer at its path", () => {
  it("deleted while in use: the next write puts the whole session back at its path, and the client is told", async () => {
    const c = start();
    await turn(c, "first words");
    const { sessionFile, sessionId } = await c.ok({ type: "get_state" });
    const before = lines(sessionFile);
    rmSync(sessionFile);

    const from = c.records.length;
    await turn(c, "second words");
    const state = await c.ok({ type: "get_state" });
    expect(state.sessionWriteError).toBeUndefined();
    const errors = writeErrors(c, from);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ sessionFile });
    expect(String(errors[0]!.error)).toMatch(/deleted or moved away while in use.*written there again/);

    const after = lines(sessionFile);
    expect(after[0]).toEqual(before[0]);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(texts(after).join(" ")).toMatch(/first words.*An answer.*second words.*An answer/);

    // Written on as usual, and a new process reads it back whole.
    await turn(c, "third words");
    await c.close();
    const reopened = new RpcClient({ agentDir: c.agentDir, cwd: c.cwd, args: ["--mode", "rpc", "--provider", "replay", "--model", "chat", "--session", sessionFile] });
    clients.push(reopened);
    expect(await reopened.ok({ type: "get_state" })).toMatchObject({ sessionId, messageCount: 6 });
  });

  it("moved away while in use: written again at its path; the moved copy keeps what it held", async () => {
    const c = start();
    await turn(c, "first words");
    const { sessionFile } = await c.ok({ type: "get_state" });
    const moved = join(tempDir("atomic-moved-"), "moved.jsonl");
    renameSync(sessionFile, moved);
    const held = readFileSync(moved, "utf8");

    await turn(c, "second words");
    expect(texts(lines(sessionFile)).join(" ")).toMatch(/first words.*An answer.*second words.*An answer/);
    // The batch written before the move was noticed went to the moved file; nothing after it.
    expect(readFileSync(moved, "utf8").startsWith(held)).toBe(true);
    await turn(c, "third words");
    expect(readFileSync(moved, "utf8")).not.toContain("third words");
    expect(texts(lines(sessionFile)).join(" ")).toContain("third words");
  });

  it("a resumed file deleted before its first write is written whole, not as a fragment without its header", async () => {
    const c = start();
    await turn(c, "first words");
    const { sessionFile, sessionId } = await c.ok({ type: "get_state" });
    await c.close();
    const resumed = new RpcClient({ agentDir: c.agentDir, cwd: c.cwd, args: ["--mode", "rpc", "--provider", "replay", "--model", "chat", "--session", sessionFile] });
    clients.push(resumed);
    expect(await resumed.ok({ type: "get_state" })).toMatchObject({ sessionId, messageCount: 2 });
    rmSync(sessionFile);
    await turn(resumed, "second words");
    const after = lines(sessionFile);
    expect(after[0]).toMatchObject({ type: "session", id: sessionId });
    expect(texts(after).join(" ")).toMatch(/first words.*An answer.*second words.*An answer/);
  });

  it("replaced by another file: that file is left untouched, the entries stay in memory until the path is free, then all are written", async () => {
    const c = start();
    await turn(c, "first words");
    const { sessionFile } = await c.ok({ type: "get_state" });
    const backup = join(tempDir("atomic-backup-"), "restored.jsonl");
    const restored = `${JSON.stringify({ type: "session", version: 1, id: "restored", timestamp: "2026-01-01T00:00:00.000Z", cwd: c.cwd })}\n`;
    writeFileSync(backup, restored);
    renameSync(backup, sessionFile);

    const from = c.records.length;
    await turn(c, "second words");
    expect(readFileSync(sessionFile, "utf8")).toBe(restored);
    const state = await c.ok({ type: "get_state" });
    expect(state.sessionWriteError).toMatch(/replaced by another file while in use.*left as it is/);
    expect(String(writeErrors(c, from)[0]?.error)).toBe(state.sessionWriteError);
    const refused = await c.request({ type: "new_session" });
    expect(refused.success).toBe(false);
    expect(String(refused.error)).toMatch(/^Cannot leave the session: some of its entries are not saved to /);
    expect(readFileSync(sessionFile, "utf8")).toBe(restored);

    rmSync(sessionFile);
    expect(await c.ok({ type: "new_session" })).toEqual({ cancelled: false });
    expect(existsSync(sessionFile)).toBe(true);
    expect(texts(lines(sessionFile)).join(" ")).toMatch(/first words.*An answer.*second words.*An answer/);
  });
});
