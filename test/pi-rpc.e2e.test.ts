/**
 * pi 1.x's RPC additions over the built CLI, beyond what pi's own clients exercise
 * (pi-acp.e2e, pi-rpc-client.e2e): `clear_queue` while a run streams, the events pi 1.x adds
 * (`session_info_changed`, `thinking_level_changed`, `entry_appended` from an extension's
 * appendEntry), `tool_execution_end.durationMs` only for a tool that ran, and `switch_session`
 * to a path where no session is written yet.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { RpcClient, tempDir, type Record_ } from "./helpers/rpc-client.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";

const fake = useFakeLlm();
const clients: RpcClient[] = [];
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };

afterEach(async () => {
  for (const c of clients.splice(0)) if (c.child.exitCode === null) await c.close();
  fake.setDefault({ text: "ok" });
});

/** An extension with commands that store data, name the session and change the level, as pi's API allows. */
const EXTENSION = `export default function (pi) {
  pi.registerCommand("note", { handler: async (args) => pi.appendEntry("note", { text: args }) });
  pi.registerCommand("title", { handler: async (args) => pi.setSessionName(args) });
  pi.registerCommand("think", { handler: async (args) => pi.setThinkingLevel(args) });
}
`;

async function start(args: string[] = []): Promise<RpcClient> {
  const agentDir = tempDir("atomic-agent-");
  await writeModelsJson(agentDir, fake.url);
  const extension = join(tempDir("atomic-ext-"), "pi-events.js");
  writeFileSync(extension, EXTENSION);
  const c = new RpcClient({ agentDir, args: ["--mode", "rpc", "--model", "fake-openai/fake-1", "-e", extension, ...args], env: NO_KEYS });
  clients.push(c);
  return c;
}

const lastUserTexts = (index: number) =>
  ((fake.requests[index]!.body.messages ?? []) as { role: string; content: unknown }[])
    .filter((m) => m.role === "user")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));

describe("clear_queue", () => {
  it("while a run streams: returns the queued texts, a queue_update with empty lists first, and none of them is delivered", async () => {
    const c = await start(["--no-session"]);
    fake.script({ text: "one two three four five six", chunkDelayMs: 60, toolCalls: [{ id: "t1", name: "read", args: { path: "missing.txt" } }] }, { text: "after the tool" });
    const from = c.records.length;
    expect(await c.ok({ type: "prompt", message: "go" })).toEqual({ disposition: "started" });
    await c.waitForEvent("message_update", 10_000, from);
    expect(await c.ok({ type: "steer", message: "turn left" })).toEqual({ disposition: "queued" });
    expect(await c.ok({ type: "follow_up", message: "then stop" })).toEqual({ disposition: "queued" });
    expect(await c.ok({ type: "prompt", message: "and also", streamingBehavior: "followUp" })).toEqual({ disposition: "queued" });
    const cleared = await c.request({ type: "clear_queue" });
    expect(cleared.data).toEqual({ steering: ["turn left"], followUp: ["then stop", "and also"] });
    const at = c.records.indexOf(cleared);
    expect(c.records[at - 1]).toEqual({ type: "queue_update", steering: [], followUp: [] });
    await c.waitForEvent("agent_settled", 10_000, from);
    expect(fake.requests).toHaveLength(2);
    expect(lastUserTexts(1)).toEqual(["go"]);
    expect((await c.ok({ type: "get_state" })).pendingMessageCount).toBe(0);
  });
});

describe("pi 1.x events", () => {
  it("session_info_changed, thinking_level_changed and entry_appended, from commands and from an extension", async () => {
    const c = await start(["--no-session"]);
    const from = c.records.length;
    await c.ok({ type: "set_session_name", name: "first name" });
    await c.ok({ type: "prompt", message: "/title second name" });
    await c.ok({ type: "set_thinking_level", level: "low" });
    await c.ok({ type: "prompt", message: "/think high" });
    await c.waitFor((r) => r.type === "thinking_level_changed" && r.level === "high", 10_000, from);
    expect(await c.ok({ type: "prompt", message: "/note remember this" })).toEqual({ disposition: "handled" });
    const appended = await c.waitForEvent("entry_appended", 10_000, from);
    const picked = c.records.slice(from).filter((r) => ["session_info_changed", "thinking_level_changed", "entry_appended"].includes(r.type));
    expect(picked.map((r) => (r.type === "entry_appended" ? { type: r.type } : r))).toEqual([
      { type: "session_info_changed", name: "first name" },
      { type: "session_info_changed", name: "second name" },
      { type: "thinking_level_changed", level: "low" },
      { type: "thinking_level_changed", level: "high" },
      { type: "entry_appended" },
    ]);
    expect(appended.entry).toMatchObject({ type: "custom", customType: "note", data: { text: "remember this" }, id: expect.any(String) });
    // The entry is in the session, and its id works as a get_entries cursor.
    const { entries } = await c.ok({ type: "get_entries" });
    expect(entries.at(-1)).toEqual(appended.entry);
    expect((await c.ok({ type: "get_entries", since: (appended.entry as Record_).id })).entries).toEqual([]);
    // Handled commands start no run: no agent_settled came for any of them.
    expect(c.records.slice(from).filter((r) => r.type === "agent_settled")).toEqual([]);
  });

  it("tool_execution_end carries durationMs for a tool that ran, not for one that never did", async () => {
    const c = await start(["--no-session"]);
    fake.script(
      {
        toolCalls: [
          { id: "ran", name: "bash", args: { command: "sleep 0.2; echo done" } },
          { id: "unknown", name: "grep", args: { pattern: "x" } },
          { id: "invalid", name: "read", args: {} },
        ],
      },
      { text: "ok" },
    );
    const from = c.records.length;
    await c.ok({ type: "prompt", message: "go" });
    await c.waitForEvent("agent_settled", 10_000, from);
    const ends = new Map(
      c.records
        .slice(from)
        .filter((r) => r.type === "tool_execution_end")
        .map((r) => [r.toolCallId as string, r]),
    );
    expect(ends.get("ran")).toMatchObject({ isError: false, durationMs: expect.any(Number) });
    expect(ends.get("ran")!.durationMs as number).toBeGreaterThanOrEqual(150);
    // grep is not offered by default (pi's four tools): it never runs, so it has no duration.
    expect(ends.get("unknown")).toMatchObject({ isError: true, result: { content: [{ type: "text", text: "Tool grep not found" }] } });
    expect(ends.get("unknown")).not.toHaveProperty("durationMs");
    expect(ends.get("invalid")).toMatchObject({ isError: true });
    expect(ends.get("invalid")).not.toHaveProperty("durationMs");
  });
});

describe("switch_session to a path where no session is written yet", () => {
  it("no file: refused as --session refuses it (pi 1.6 would start an empty session there); the session stays", async () => {
    const c = await start();
    const before = await c.ok({ type: "get_state" });
    const path = join(tempDir("atomic-elsewhere-"), "planned", "session.jsonl");
    expect(await c.request({ type: "switch_session", sessionPath: path })).toMatchObject({ success: false, error: `Session file not found: ${path}` });
    expect(existsSync(path)).toBe(false);
    expect((await c.ok({ type: "get_state" })).sessionId).toBe(before.sessionId);
  });

  it("an empty file starts a new session there; a file that holds something else is still refused, and --no-session writes nothing", async () => {
    const c = await start();
    const dir = tempDir("atomic-elsewhere-");
    const empty = join(dir, "empty.jsonl");
    writeFileSync(empty, "");
    expect(await c.ok({ type: "switch_session", sessionPath: empty })).toEqual({ cancelled: false });
    expect(await c.ok({ type: "get_state" })).toMatchObject({ sessionFile: empty, messageCount: 0 });
    await c.ok({ type: "set_session_name", name: "named" });
    await c.close();
    expect(
      readFileSync(empty, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as Record_).type),
    ).toEqual(["session", "session_info"]);

    const other = await start();
    const notes = join(dir, "notes.txt");
    writeFileSync(notes, "just some notes\n");
    expect(await other.request({ type: "switch_session", sessionPath: notes })).toMatchObject({ success: false, error: `Not a valid session file: ${notes} (line 1 is not JSON)` });
    const memory = await start(["--no-session"]);
    const missing = join(dir, "missing.jsonl");
    expect(await memory.request({ type: "switch_session", sessionPath: missing })).toMatchObject({ success: false, error: `Session file not found: ${missing}` });
  });
});
