/**
 * Session conformance over the built CLI: queued messages do not survive a session replacement,
 * a damaged session file is loaded without crashing any command or run, and fork/clone while
 * streaming close the old run before they answer. Replay cassettes, persisted sessions.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { indexOf, isType, textOf } from "./helpers/agent-harness.js";
import { RpcClient, tempDir, textTurn, writeCassette, type Record_ } from "./helpers/rpc-client.js";

const clients: RpcClient[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) if (c.child.exitCode === null) c.child.kill("SIGKILL");
});

function start(options: { turns?: object[][]; eventDelayMs?: number; noSession?: boolean } = {}): RpcClient {
  const agentDir = tempDir("atomic-agent-");
  writeCassette(agentDir, "chat", options.turns ?? [textTurn("Hello there.")], options.eventDelayMs ? { eventDelayMs: options.eventDelayMs } : {});
  const args = ["--mode", "rpc", "--provider", "replay", "--model", "chat", ...(options.noSession ? ["--no-session"] : [])];
  const client = new RpcClient({ agentDir, args });
  clients.push(client);
  return client;
}

const ok = (c: RpcClient, command: Record<string, unknown>): Promise<any> => c.ok(command);

const USAGE = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

const userTexts = (records: Record_[]) => records.filter((r) => r.type === "message_start" && (r.message as { role: string }).role === "user").map((r) => textOf(r.message));

describe("queued messages and session replacement", () => {
  it.each([["new_session"], ["switch_session"]])("%s drops the old session's queue, with a queue_update before its response", async (type) => {
    const c = start();
    await ok(c, { type: "prompt", message: "create the file" });
    await c.waitForEvent("agent_end");
    const file = String((await ok(c, { type: "get_state" })).sessionFile);
    const from = c.records.length;
    await ok(c, { type: "steer", message: "old steer" });
    await ok(c, { type: "follow_up", message: "old follow-up" });
    const response = await c.request(type === "new_session" ? { type } : { type, sessionPath: file });
    expect(response).toMatchObject({ success: true, data: { cancelled: false } });
    const records = c.records.slice(from);
    const cleared = indexOf(records, (r) => r.type === "queue_update" && (r.steering as string[]).length === 0 && (r.followUp as string[]).length === 0);
    expect(cleared).toBeGreaterThan(-1);
    expect(cleared).toBeLessThan(records.indexOf(response));
    expect((await ok(c, { type: "get_state" })).pendingMessageCount).toBe(0);

    const promptFrom = c.records.length;
    await ok(c, { type: "prompt", message: "fresh start" });
    await c.waitForEvent("agent_end", 5000, promptFrom);
    expect(userTexts(c.records.slice(promptFrom))).toEqual(["fresh start"]);
  });

  it("new_session gives a new sessionId and an empty session", async () => {
    const c = start({ noSession: true });
    const before = await ok(c, { type: "get_state" });
    await ok(c, { type: "prompt", message: "hi" });
    await c.waitForEvent("agent_end");
    expect(await ok(c, { type: "new_session" })).toEqual({ cancelled: false });
    const after = await ok(c, { type: "get_state" });
    expect(after.sessionId).not.toBe(before.sessionId);
    expect(after).toMatchObject({ messageCount: 0, pendingMessageCount: 0, isStreaming: false });
    expect(await ok(c, { type: "get_entries" })).toEqual({ entries: [], leafId: null });
    expect(await ok(c, { type: "get_tree" })).toEqual({ tree: [], leafId: null });
    expect(await ok(c, { type: "get_last_assistant_text" })).toEqual({ text: null });
  });
});

describe("a damaged session file", () => {
  const header = { type: "session", version: 1, id: "damaged", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/tmp" };
  const user = (id: string, parentId: string | null, text: string) => ({
    type: "message",
    id,
    parentId,
    timestamp: header.timestamp,
    message: { role: "user", content: text, timestamp: 1 },
  });
  const lines = [
    header,
    user("u1", null, "first question"),
    { type: "message", id: "bad1", parentId: "u1", timestamp: header.timestamp },
    { type: "message", id: "bad2", parentId: "u1", timestamp: header.timestamp, message: null },
    { type: "message", id: "bad3", parentId: "u1", timestamp: header.timestamp, message: { role: "assistant", timestamp: 1 } },
    { type: "message", id: "bad4", parentId: "u1", timestamp: header.timestamp, message: { role: "user", content: [{ type: "text" }], timestamp: 1 } },
    { type: "message", id: "bad5", parentId: "u1", timestamp: header.timestamp, message: { role: "toolResult", toolCallId: "x", timestamp: 1 } },
    { type: "session_info", id: "bad6", parentId: "u1", timestamp: header.timestamp },
    { type: "thinking_level_change", id: "bad7", parentId: "u1", timestamp: header.timestamp, thinkingLevel: "extreme" },
    user("u2", "u1", "second question"),
  ];

  it.each([["switch_session"], ["import_session"]])("%s skips unusable entries; every command and the next run still work", async (type) => {
    const c = start();
    const file = join(c.cwd, "damaged.jsonl");
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    expect(await ok(c, type === "switch_session" ? { type, sessionPath: file } : { type, inputPath: file })).toEqual({ cancelled: false });
    expect(c.stderr).toContain("Skipped 7 unreadable line(s)");

    expect((await ok(c, { type: "get_messages" })).messages.map(textOf)).toEqual(["first question", "second question"]);
    expect((await ok(c, { type: "get_entries" })).entries.map((e: Record_) => e.id)).toEqual(["u1", "u2"]);
    expect(await ok(c, { type: "get_fork_messages" })).toEqual({
      messages: [
        { entryId: "u1", text: "first question" },
        { entryId: "u2", text: "second question" },
      ],
    });
    expect(await ok(c, { type: "get_session_stats" })).toMatchObject({ userMessages: 2, assistantMessages: 0, totalMessages: 2 });
    expect(await ok(c, { type: "get_last_assistant_text" })).toEqual({ text: null });
    expect(await ok(c, { type: "get_state" })).toMatchObject({ thinkingLevel: "off", messageCount: 2 });
    expect(readFileSync((await ok(c, { type: "export_html" })).path, "utf8")).toContain("second question");

    const from = c.records.length;
    await ok(c, { type: "prompt", message: "third question" });
    const end = await c.waitForEvent("agent_end", 5000, from);
    expect((end.messages as Record_[]).map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(await ok(c, { type: "get_last_assistant_text" })).toEqual({ text: "Hello there." });
  });
});

describe("a damaged line in the middle of a session file", () => {
  const header = { type: "session", version: 1, id: "torn-middle", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/tmp" };
  const message = (id: string, parentId: string | null, role: "user" | "assistant", text: string) => ({
    type: "message",
    id,
    parentId,
    timestamp: header.timestamp,
    message:
      role === "user"
        ? { role, content: text, timestamp: 1 }
        : { role, content: [{ type: "text", text }], api: "replay", provider: "replay", model: "chat", usage: USAGE, stopReason: "stop", timestamp: 1 },
  });

  it("keeps the conversation before it in the context: the entries after it follow the nearest readable entry", async () => {
    const c = start();
    const file = join(c.cwd, "damaged-middle.jsonl");
    const lines = [
      JSON.stringify(header),
      JSON.stringify(message("u1", null, "user", "first question")),
      JSON.stringify(message("a1", "u1", "assistant", "first answer")),
      // u2 (parent a1) torn by a bad disk block: a2 and what follows hung from nothing.
      '{"type":"message","id":"u2","parentId":"a1","timest\u0000garbage',
      JSON.stringify(message("a2", "u2", "assistant", "second answer")),
      // An entry of an unusable shape (no message): its child follows its parent.
      JSON.stringify({ type: "message", id: "bad", parentId: "a2", timestamp: header.timestamp }),
      JSON.stringify(message("u3", "bad", "user", "third question")),
    ];
    writeFileSync(file, lines.join("\n") + "\n");
    expect(await ok(c, { type: "switch_session", sessionPath: file })).toEqual({ cancelled: false });
    expect(c.stderr).toContain(`Skipped 2 unreadable line(s) in session file ${file}; re-linked 2 entries whose parent was on a skipped line to the nearest readable entry`);

    expect((await ok(c, { type: "get_messages" })).messages.map(textOf)).toEqual(["first question", "first answer", "second answer", "third question"]);
    const { tree, leafId } = await ok(c, { type: "get_tree" });
    expect(tree).toHaveLength(1);
    expect(leafId).toBe("u3");
    expect((await ok(c, { type: "get_entries" })).entries.map((e: Record_) => [e.id, e.parentId])).toEqual([
      ["u1", null],
      ["a1", "u1"],
      ["a2", "a1"],
      ["u3", "a2"],
    ]);
    // The file is not rewritten: the damaged line is still there for whoever wants to recover it.
    expect(readFileSync(file, "utf8")).toBe(lines.join("\n") + "\n");
  });
});

describe("session paths that are not regular files", () => {
  it.skipIf(process.platform === "win32")("switch_session/import_session reject a FIFO at once instead of blocking the lane", async () => {
    const c = start();
    const fifo = join(c.cwd, "pipe.jsonl");
    execFileSync("mkfifo", [fifo]);
    for (const [command, kind] of [
      [{ type: "switch_session", sessionPath: fifo }, "FIFO"],
      [{ type: "import_session", inputPath: fifo }, "FIFO"],
      [{ type: "switch_session", sessionPath: c.cwd }, "directory"],
    ] as const) {
      const path = "sessionPath" in command ? command.sessionPath : command.inputPath;
      expect(await c.request(command, 3000)).toMatchObject({ success: false, error: `Not a valid session file: ${path} (it is a ${kind}, not a regular file)` });
    }
    expect(await ok(c, { type: "get_state" })).toMatchObject({ isStreaming: false, messageCount: 0 });
  });
});

describe("fork and clone while streaming", () => {
  async function streamSecondPrompt(c: RpcClient): Promise<{ entries: Record_[]; from: number }> {
    await ok(c, { type: "prompt", message: "one" });
    await c.waitForEvent("agent_end");
    const { entries } = await ok(c, { type: "get_entries" });
    const from = c.records.length;
    await ok(c, { type: "prompt", message: "two" });
    await c.waitForEvent("message_update", 5000, from);
    return { entries, from };
  }
  const turns = [textTurn("short", 1), textTurn("word ".repeat(100), 100)];

  it("fork: the old run closes (aborted) before the response; the fork holds the branch before the message", async () => {
    const c = start({ turns, eventDelayMs: 15 });
    const { entries, from } = await streamSecondPrompt(c);
    const old = String((await ok(c, { type: "get_state" })).sessionFile);
    const response = await c.request({ type: "fork", entryId: entries[0].id });
    expect(response).toMatchObject({ success: true, data: { text: "one", cancelled: false } });
    const records = c.records.slice(from);
    const agentEnd = indexOf(records, isType("agent_end"));
    expect(agentEnd).toBeGreaterThan(-1);
    expect(agentEnd).toBeLessThan(records.indexOf(response));
    expect((records[agentEnd]!.messages as Record_[]).at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
    expect(await ok(c, { type: "get_state" })).toMatchObject({ isStreaming: false, messageCount: 0 });
    const oldLines = readFileSync(old, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record_);
    expect((oldLines.at(-1)!.message as { stopReason: string }).stopReason).toBe("aborted");
  });

  it("clone: the old run closes before the response; the clone holds the aborted turn too", async () => {
    const c = start({ turns, eventDelayMs: 15 });
    const { from } = await streamSecondPrompt(c);
    const before = await ok(c, { type: "get_state" });
    const response = await c.request({ type: "clone" });
    expect(response).toMatchObject({ success: true, data: { cancelled: false } });
    expect(indexOf(c.records, isType("agent_end"), from)).toBeLessThan(c.records.indexOf(response));
    const after = await ok(c, { type: "get_state" });
    expect(after.sessionId).not.toBe(before.sessionId);
    const messages = (await ok(c, { type: "get_messages" })).messages as { role: string; stopReason?: string }[];
    expect(messages.map((m) => m.stopReason ?? m.role)).toEqual(["user", "stop", "user", "aborted"]);
  });
});
