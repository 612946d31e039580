/** Sessions over the built CLI: persistence, every session command, guards, abort-on-replace and crash recovery. */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RpcClient, tempDir, textTurn, writeCassette, type Record_ } from "./helpers/rpc-client.js";
import { viaServer } from "./helpers/via-server.js";

const clients: RpcClient[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) if (c.child.exitCode === null) c.child.kill("SIGKILL");
});

interface Setup {
  agentDir?: string;
  cwd?: string;
  extraArgs?: string[];
  plugins?: string[];
  cassette?: string;
}

/** A persisted session (no --no-session) against a replay cassette. */
function start(setup: Setup = {}): RpcClient {
  const agentDir = setup.agentDir ?? tempDir("atomic-agent-");
  if (!existsSync(join(agentDir, "cassettes", "chat.jsonl"))) writeCassette(agentDir, "chat", [textTurn("Hello there, friend.")]);
  const client = new RpcClient({
    agentDir,
    ...(setup.cwd ? { cwd: setup.cwd } : {}),
    settings: { plugins: [...(setup.plugins ?? [])] },
    args: ["--mode", "rpc", "--provider", "replay", "--model", setup.cassette ?? "chat", ...(setup.extraArgs ?? [])],
  });
  clients.push(client);
  return client;
}

const ok = (c: RpcClient, command: Record<string, unknown>): Promise<any> => c.ok(command);

async function promptAndWait(c: RpcClient, message: string): Promise<void> {
  const from = c.records.length;
  await ok(c, { type: "prompt", message });
  await c.waitForEvent("agent_end", 10_000, from);
}

function fileLines(path: string): Record_[] {
  return readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record_);
}

describe("sessions: persistence and queries", () => {
  it("writes the session file under <agent dir>/sessions/--<cwd>--/ and answers the read commands", async () => {
    const c = start({ extraArgs: ["-n", "first"] });
    const state = await ok(c, { type: "get_state" });
    expect(state.sessionName).toBe("first");
    const file = String(state.sessionFile);
    const encoded = `--${resolve(c.cwd)
      .replace(/^\//, "")
      .replace(/[/\\:]/g, "-")}--`;
    expect(dirname(file)).toBe(join(c.agentDir, "sessions", encoded));
    expect(file.endsWith(`_${String(state.sessionId)}.jsonl`)).toBe(true);

    await promptAndWait(c, "hello");
    const { entries, leafId } = await ok(c, { type: "get_entries" });
    expect(entries.map((e: Record_) => e.type)).toEqual(["session_info", "message", "message"]);
    expect(leafId).toBe(entries[2].id);
    expect((await ok(c, { type: "get_entries", since: entries[0].id })).entries).toEqual(entries.slice(1));
    expect(await c.request({ type: "get_entries", since: "nope" })).toMatchObject({ success: false, error: "Entry not found: nope" });

    const { tree } = await ok(c, { type: "get_tree" });
    expect(tree).toHaveLength(1);
    expect(tree[0].children[0].children[0].entry.id).toBe(leafId);
    expect(await ok(c, { type: "get_fork_messages" })).toEqual({ messages: [{ entryId: entries[1].id, text: "hello" }] });

    const stats = await ok(c, { type: "get_session_stats" });
    expect(stats).toMatchObject({ sessionFile: file, sessionId: state.sessionId, userMessages: 1, assistantMessages: 1, totalMessages: 2 });
    expect(stats.tokens).toMatchObject({ input: 10, output: 5, total: 15 });
    expect(stats.contextUsage.contextWindow).toBeGreaterThan(0);

    expect(await c.request({ type: "set_session_name", name: "  " })).toMatchObject({ success: false, error: "Session name cannot be empty" });
    expect(await c.request({ type: "set_session_name", name: "renamed" })).toEqual(expect.objectContaining({ success: true }));
    expect((await ok(c, { type: "get_state" })).sessionName).toBe("renamed");

    await c.close();
    const lines = fileLines(file);
    expect(lines[0]).toMatchObject({ type: "session", version: 1, id: state.sessionId, cwd: c.cwd });
    expect(lines.slice(1).map((l) => l.type)).toEqual(["session_info", "message", "message", "session_info"]);
  });

  it("honours --session-dir over ATOMIC_CODING_AGENT_SESSION_DIR", async () => {
    const envDir = tempDir("atomic-env-sessions-");
    const agentDir = tempDir("atomic-agent-");
    const cwd = tempDir("atomic-cwd-");
    const withBoth = new RpcClient({
      agentDir,
      cwd,
      settings: { plugins: [] },
      env: { ATOMIC_CODING_AGENT_SESSION_DIR: envDir },
      args: ["--mode", "rpc", "--provider", "replay", "--model", "demo", "--session-dir", "my-sessions"],
    });
    clients.push(withBoth);
    expect(dirname(String((await ok(withBoth, { type: "get_state" })).sessionFile))).toBe(join(cwd, "my-sessions"));
    const envOnly = new RpcClient({
      agentDir,
      cwd,
      settings: { plugins: [] },
      env: { ATOMIC_CODING_AGENT_SESSION_DIR: envDir },
      args: ["--mode", "rpc", "--provider", "replay", "--model", "demo"],
    });
    clients.push(envOnly);
    expect(dirname(String((await ok(envOnly, { type: "get_state" })).sessionFile))).toBe(envDir);
  });

  it("keeps --no-session sessions in memory and refuses to export them", async () => {
    const c = start({ extraArgs: ["--no-session"] });
    await promptAndWait(c, "hi");
    const state = await ok(c, { type: "get_state" });
    expect(state.sessionFile).toBeUndefined();
    expect(state.sessionId).toEqual(expect.any(String));
    expect(await c.request({ type: "export_html" })).toMatchObject({ success: false, error: "Cannot export in-memory session to HTML" });
    expect(existsSync(join(c.agentDir, "sessions"))).toBe(false);
  });
});

describe("sessions: replacing the session", () => {
  it("new_session, switch_session and import_session move between files", async () => {
    const c = start();
    await promptAndWait(c, "remember this");
    const first = String((await ok(c, { type: "get_state" })).sessionFile);

    expect(await ok(c, { type: "new_session", parentSession: first })).toEqual({ cancelled: false });
    expect((await ok(c, { type: "get_messages" })).messages).toEqual([]);
    const second = await ok(c, { type: "get_state" });
    expect(second.sessionFile).not.toBe(first);

    expect(await ok(c, { type: "switch_session", sessionPath: first })).toEqual({ cancelled: false });
    expect((await ok(c, { type: "get_messages" })).messages.map((m: Record_) => m.role)).toEqual(["user", "assistant"]);
    expect((await ok(c, { type: "get_state" })).sessionFile).toBe(first);

    expect(await ok(c, { type: "import_session", inputPath: first })).toEqual({ cancelled: false });
    const imported = String((await ok(c, { type: "get_state" })).sessionFile);
    expect(imported).not.toBe(first);
    expect(dirname(imported)).toBe(dirname(first));
    expect((await ok(c, { type: "get_messages" })).messages).toHaveLength(2);

    expect(await c.request({ type: "import_session", inputPath: "missing.jsonl" })).toMatchObject({ success: false, error: `File not found: ${join(c.cwd, "missing.jsonl")}` });
    writeFileSync(join(c.cwd, "notes.txt"), "not a session\n");
    expect(await c.request({ type: "switch_session", sessionPath: "notes.txt" })).toMatchObject({
      success: false,
      error: `Not a valid session file: ${join(c.cwd, "notes.txt")} (line 1 is not JSON)`,
    });
  });

  it("fork starts before a user message and clone copies the active branch", async () => {
    const c = start();
    expect(await c.request({ type: "clone" })).toMatchObject({ success: false, error: "Cannot clone session: no current entry selected" });
    await promptAndWait(c, "one");
    await promptAndWait(c, "two");
    const original = String((await ok(c, { type: "get_state" })).sessionFile);
    const { entries } = await ok(c, { type: "get_entries" });
    expect(await c.request({ type: "fork", entryId: entries[1].id })).toMatchObject({ success: false, error: "Invalid entry ID for forking" });

    expect(await ok(c, { type: "fork", entryId: entries[2].id })).toEqual({ text: "two", cancelled: false });
    expect((await ok(c, { type: "get_messages" })).messages.map((m: Record_) => m.role)).toEqual(["user", "assistant"]);
    const forked = String((await ok(c, { type: "get_state" })).sessionFile);
    expect(forked).not.toBe(original);
    expect(fileLines(forked)[0]!.parentSession).toBe(original);
    expect((await ok(c, { type: "get_entries" })).entries.map((e: Record_) => e.id)).toEqual([entries[0].id, entries[1].id]);

    expect(await ok(c, { type: "clone" })).toEqual({ cancelled: false });
    const cloned = String((await ok(c, { type: "get_state" })).sessionFile);
    expect(cloned).not.toBe(forked);
    expect(
      fileLines(cloned)
        .slice(1)
        .map((e) => e.id),
    ).toEqual([entries[0].id, entries[1].id]);
  });

  it("a guard plugin cancels every replacement and nothing changes", async () => {
    const agentDir = tempDir("atomic-agent-");
    const pluginPath = join(agentDir, "cancel-plugin.ts");
    writeFileSync(
      pluginPath,
      `import { definePlugin } from "atomic-agent";
export default definePlugin({
  name: "cancel-plugin",
  apply(k) {
    k.hooks.session_before_switch.tapPromise(k.name, async () => ({ cancel: true }));
    k.hooks.session_before_fork.tapPromise(k.name, async () => ({ cancel: true }));
  },
});
`,
    );
    const c = start({ agentDir, plugins: [pluginPath] });
    await promptAndWait(c, "keep me");
    const before = await ok(c, { type: "get_state" });
    const { entries } = await ok(c, { type: "get_entries" });
    const file = String(before.sessionFile);
    const filesBefore = readdirSync(dirname(file)).length;

    expect(await ok(c, { type: "new_session" })).toEqual({ cancelled: true });
    expect(await ok(c, { type: "switch_session", sessionPath: file })).toEqual({ cancelled: true });
    expect(await ok(c, { type: "import_session", inputPath: file })).toEqual({ cancelled: true });
    expect(await ok(c, { type: "fork", entryId: entries[0].id })).toEqual({ text: "keep me", cancelled: true });
    expect(await ok(c, { type: "clone" })).toEqual({ cancelled: true });

    const after = await ok(c, { type: "get_state" });
    expect([after.sessionId, after.sessionFile]).toEqual([before.sessionId, before.sessionFile]);
    expect((await ok(c, { type: "get_messages" })).messages).toHaveLength(2);
    expect(readdirSync(dirname(file))).toHaveLength(filesBefore);
  });

  it("replacing the session while a run streams aborts it first; its events precede the response", async () => {
    const agentDir = tempDir("atomic-agent-");
    writeCassette(agentDir, "slow", [textTurn("word ".repeat(200), 200)], { eventDelayMs: 20 });
    const c = start({ agentDir, cassette: "slow" });
    const file = String((await ok(c, { type: "get_state" })).sessionFile);
    const from = c.records.length;
    await ok(c, { type: "prompt", message: "talk a lot" });
    await c.waitFor((r) => r.type === "message_update", 10_000, from);
    const response = await c.request({ type: "new_session" });
    expect(response).toMatchObject({ success: true, data: { cancelled: false } });
    const types = c.types(from);
    expect(types.indexOf("agent_end")).toBeGreaterThan(-1);
    expect(types.indexOf("agent_end")).toBeLessThan(c.records.indexOf(response) - from);
    const last = fileLines(file).at(-1)!;
    expect((last.message as Record_).stopReason).toBe("aborted");
  });
});

describe("sessions: export and crash recovery", () => {
  it("exports the active branch as escaped, self-contained HTML", async () => {
    const c = start();
    expect(await c.request({ type: "export_html" })).toMatchObject({ success: false, error: "Nothing to export yet - start a conversation first" });
    await promptAndWait(c, "show <script>alert(1)</script> please");
    const file = String((await ok(c, { type: "get_state" })).sessionFile);
    const { path } = await ok(c, { type: "export_html" });
    expect(path).toBe(
      join(
        c.cwd,
        `atomic-session-${file
          .split("/")
          .pop()!
          .replace(/\.jsonl$/, "")}.html`,
      ),
    );
    const html = readFileSync(path, "utf8");
    expect(html).toContain("show &lt;script&gt;alert(1)&lt;/script&gt; please");
    expect(html).not.toContain("<script");
    expect(html).toContain("Hello there, friend.");
    const custom = await ok(c, { type: "export_html", outputPath: join(c.cwd, "out", "s.html") });
    expect(existsSync(custom.path)).toBe(true);
  });

  // Through a server (test/sessions.via-server.e2e.test.ts) the killed server's agent stays registered under its handle
  // (docs/server.md, Persistence), so the next server answers session_in_use for its file: test/server-lifecycle.e2e.test.ts covers that.
  it.skipIf(viaServer())("after kill -9 during a streamed answer, switch_session to that file recovers the prompt", async () => {
    const agentDir = tempDir("atomic-agent-");
    const cwd = tempDir("atomic-cwd-");
    writeCassette(agentDir, "slow", [textTurn("word ".repeat(200), 200)], { eventDelayMs: 20 });
    const first = start({ agentDir, cwd, cassette: "slow" });
    const file = String((await ok(first, { type: "get_state" })).sessionFile);
    await ok(first, { type: "prompt", message: "survive the crash" });
    await first.waitFor((r) => r.type === "message_update");
    first.child.kill("SIGKILL");
    await first.exited;

    const second = start({ agentDir, cwd });
    expect(await ok(second, { type: "switch_session", sessionPath: file })).toEqual({ cancelled: false });
    const { messages } = await ok(second, { type: "get_messages" });
    expect(messages).toEqual([expect.objectContaining({ role: "user", content: "survive the crash" })]);
    await promptAndWait(second, "and continue");
    await second.close();
    const lines = fileLines(file); // every line parses: the append after recovery started on a new line
    expect(lines.filter((l) => l.type === "message").map((l) => (l.message as Record_).role)).toEqual(["user", "user", "assistant"]);
  });
});
