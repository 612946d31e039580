/**
 * Session continuity over the built CLI: --continue/-c, --resume, --session <path|id prefix>, and
 * list_sessions (this folder's sessions or all, newest first, pi's SessionInfo fields) over 1,000
 * files. Mistakes exit 2 with their exact message. Timing lives in bench/list-sessions.mjs.
 */
import { copyFileSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { encodeCwd } from "../plugins/session-jsonl/paths.js";
import { writeModelsJson } from "./fake-llm/server.js";
import { RpcClient, runCli, tempDir } from "./helpers/rpc-client.js";

const clients: RpcClient[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) if (c.child.exitCode === null) await c.close();
});
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folders(): { agentDir: string; cwd: string } {
  const agentDir = tempDir("atomic-agent-");
  const cwd = realpathSync(tempDir("atomic-cwd-"));
  dirs.push(agentDir, cwd);
  return { agentDir, cwd };
}

function start(agentDir: string, cwd: string, args: string[]): RpcClient {
  const c = new RpcClient({ agentDir, cwd, args: ["--mode", "rpc", ...args] });
  clients.push(c);
  return c;
}

const sessionFolder = (agentDir: string, cwd: string) => join(agentDir, "sessions", encodeCwd(cwd));

/** A stored session with `count` user/assistant exchanges; the last one at `minute` past 10:00 on day `day`. */
function writeSession(folder: string, id: string, options: { cwd: string; day?: number; count?: number; name?: string; model?: [string, string]; thinking?: string }): string {
  mkdirSync(folder, { recursive: true });
  const day = String(options.day ?? 1).padStart(2, "0");
  const lines: object[] = [{ type: "session", version: 1, id, timestamp: `2026-11-${day}T09:00:00.000Z`, cwd: options.cwd }];
  let parentId: string | null = null;
  if (options.model) {
    lines.push({ type: "model_change", provider: options.model[0], modelId: options.model[1], id: `${id}-mc`, parentId, timestamp: `2026-11-${day}T09:00:00.000Z` });
    parentId = `${id}-mc`;
  }
  if (options.thinking) {
    lines.push({ type: "thinking_level_change", thinkingLevel: options.thinking, id: `${id}-tc`, parentId, timestamp: `2026-11-${day}T09:00:00.000Z` });
    parentId = `${id}-tc`;
  }
  for (let i = 0; i < (options.count ?? 1); i++) {
    const at = `2026-11-${day}T10:${String(i % 60).padStart(2, "0")}:00.000Z`;
    lines.push({ type: "message", message: { role: "user", content: `question ${i} of ${id}`, timestamp: Date.parse(at) }, id: `${id}-u${i}`, parentId, timestamp: at });
    lines.push({
      type: "message",
      message: {
        role: "assistant",
        content: [{ type: "text", text: `answer ${i}` }],
        api: "replay",
        provider: options.model?.[0] ?? "replay",
        model: options.model?.[1] ?? "demo",
        usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
        stopReason: "stop",
        timestamp: Date.parse(at),
      },
      id: `${id}-a${i}`,
      parentId: `${id}-u${i}`,
      timestamp: at,
    });
    parentId = `${id}-a${i}`;
  }
  if (options.name) lines.push({ type: "session_info", name: options.name, id: `${id}-n`, parentId, timestamp: `2026-11-${day}T11:00:00.000Z` });
  const file = join(folder, `2026-11-${day}T09-00-00-000Z_${id}.jsonl`);
  writeFileSync(file, lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
  return file;
}

/** A usage mistake: exit 2, the exact stderr, nothing on stdout. */
async function usageError(agentDir: string, cwd: string, args: string[], message: string): Promise<void> {
  const run = await runCli(["--mode", "rpc", ...args], { agentDir, cwd });
  expect(run.stderr).toBe(`atomic: ${message}\n`);
  expect(run.code).toBe(2);
  expect(run.stdout).toBe("");
}

describe("--continue / --resume", () => {
  it("reopens this folder's most recent session (messages, model, file) and appends to it", async () => {
    const { agentDir, cwd } = folders();
    const first = start(agentDir, cwd, ["--provider", "replay", "--model", "demo"]);
    await first.ok({ type: "prompt", message: "remember the word teal" });
    await first.waitForEvent("agent_end");
    const { sessionFile, sessionId, messageCount } = await first.ok({ type: "get_state" });
    expect(messageCount).toBeGreaterThan(1);
    await first.close();
    // Another folder's newer session is not this folder's.
    writeSession(sessionFolder(agentDir, "/elsewhere"), "99999999-other", { cwd: "/elsewhere", day: 29 });

    for (const flag of ["--continue", "-c", "--resume", "-r"]) {
      const again = start(agentDir, cwd, [flag]);
      const state = await again.ok({ type: "get_state" });
      expect(state, flag).toMatchObject({ sessionFile, sessionId, messageCount, model: { provider: "replay", id: "demo" } });
      await again.close();
    }
    const resumed = start(agentDir, cwd, ["-c"]);
    await resumed.ok({ type: "prompt", message: "and again" });
    await resumed.waitForEvent("agent_end");
    expect((await resumed.ok({ type: "get_messages" })).messages.length).toBeGreaterThan(messageCount);
    expect((await resumed.ok({ type: "get_state" })).sessionFile).toBe(sessionFile);
  });

  it("starts a new session when the folder has none, saying so on stderr", async () => {
    const { agentDir, cwd } = folders();
    const c = start(agentDir, cwd, ["--continue", "--provider", "replay", "--model", "demo"]);
    expect((await c.ok({ type: "get_state" })).messageCount).toBe(0);
    expect(c.stderr).toContain(`No previous session in ${sessionFolder(agentDir, cwd)}: starting a new one.`);
  });

  it("restores the session's model and level; a model or level given on the command line wins", async () => {
    const { agentDir, cwd } = folders();
    await writeModelsJson(agentDir, "http://127.0.0.1:9");
    writeSession(sessionFolder(agentDir, cwd), "aaaa0000-model", { cwd, model: ["fake-openai", "fake-1"], thinking: "high" });
    const restored = start(agentDir, cwd, ["-c"]);
    expect(await restored.ok({ type: "get_state" })).toMatchObject({ model: { provider: "fake-openai", id: "fake-1" }, thinkingLevel: "high", messageCount: 2 });
    await restored.close();
    const chosen = start(agentDir, cwd, ["-c", "--model", "fake-anthropic/fake-1", "--thinking", "low"]);
    expect(await chosen.ok({ type: "get_state" })).toMatchObject({ model: { provider: "fake-anthropic" }, thinkingLevel: "low", messageCount: 2 });
  });
});

describe("--session <path|id>", () => {
  it("opens a file by path (relative to the working folder or ~), or by an id prefix: this folder's first, then any folder's", async () => {
    const { agentDir, cwd } = folders();
    const here = sessionFolder(agentDir, cwd);
    const byPath = writeSession(here, "abcd1111-path", { cwd });
    writeSession(here, "abcd2222-other", { cwd, day: 2 });
    const foreign = writeSession(sessionFolder(agentDir, "/far/away"), "f00d0000-far", { cwd: "/far/away" });

    const copy = join(cwd, "saved.jsonl");
    copyFileSync(byPath, copy);
    const cases: [string, string][] = [
      [byPath, byPath],
      ["saved.jsonl", copy],
      ["abcd1", byPath],
      ["abcd2222-other", join(here, "2026-11-02T09-00-00-000Z_abcd2222-other.jsonl")],
      ["f00d", foreign],
    ];
    for (const [arg, file] of cases) {
      const c = start(agentDir, cwd, ["--session", arg]);
      expect((await c.ok({ type: "get_state" })).sessionFile, arg).toBe(file);
      await c.close();
    }
    const home = new RpcClient({ agentDir, cwd, args: ["--mode", "rpc", "--session", "~/saved.jsonl"], env: { HOME: cwd } });
    clients.push(home);
    expect((await home.ok({ type: "get_state" })).sessionFile).toBe(copy);
  });

  it("an ambiguous prefix, a missing file, an unknown id and a file that is no session exit 2 saying which", async () => {
    const { agentDir, cwd } = folders();
    const here = sessionFolder(agentDir, cwd);
    const one = writeSession(here, "abcd1111-one", { cwd, day: 3 });
    const two = writeSession(here, "abcd2222-two", { cwd, day: 4 });
    await usageError(
      agentDir,
      cwd,
      ["--session", "abcd"],
      [
        'Session id prefix "abcd" is ambiguous (--session); it matches 2 sessions:',
        `  abcd2222-two  2026-11-04T10:00:00.000Z  ${two}  "question 0 of abcd2222-two"`,
        `  abcd1111-one  2026-11-03T10:00:00.000Z  ${one}  "question 0 of abcd1111-one"`,
      ].join("\n"),
    );
    await usageError(agentDir, cwd, ["--session", "gone/x.jsonl"], `Session file not found: ${join(cwd, "gone/x.jsonl")} (--session)`);
    await usageError(agentDir, cwd, ["--session", "zzzz"], 'No session found matching "zzzz" (--session): no such file, and no session id starts with it');
    // An empty value (a script's unset variable) is no prefix of every session.
    await usageError(agentDir, cwd, ["--session", ""], 'Session not given (--session): expected a session file\'s path or an id prefix, got ""');
    writeFileSync(join(cwd, "notes.jsonl"), '{"hello":"world"}\n');
    await usageError(agentDir, cwd, ["--session", "notes.jsonl"], `Not a valid session file: ${join(cwd, "notes.jsonl")} (line 1 is not a session header) (--session)`);
  });

  it("--resume takes no value: a session id after it is a usage error that shows --session, not a prompt", async () => {
    const { agentDir, cwd } = folders();
    const file = writeSession(sessionFolder(agentDir, cwd), "0a1b2c3d-resumed", { cwd });
    const message = '--resume takes no value: it reopens this folder\'s latest session. To open the session "0a1b2c3d", use --session 0a1b2c3d';
    await usageError(agentDir, cwd, ["--resume", "0a1b2c3d"], message);
    const printed = await runCli(["-p", "--provider", "replay", "--model", "demo", "--resume", "0a1b2c3d", "go on"], { agentDir, cwd });
    expect(printed).toMatchObject({ code: 2, stdout: "", stderr: `atomic: ${message}\n` });
    expect(readFileSync(file, "utf8")).not.toContain("go on");
  });
});

describe("list_sessions", () => {
  it("lists 1,000 session files newest first with pi's SessionInfo fields; all: true adds other folders", async () => {
    const { agentDir, cwd } = folders();
    const here = sessionFolder(agentDir, cwd);
    for (let i = 0; i < 1000; i++) {
      const id = `${String(i).padStart(8, "0")}-0000-4000-8000-000000000000`;
      writeSession(here, id, { cwd, day: 1 + (i % 28), count: 1 + (i % 5), ...(i % 100 === 0 ? { name: `named ${i}` } : {}) });
    }
    writeFileSync(join(here, "junk.jsonl"), "not a session\n");
    writeSession(sessionFolder(agentDir, "/other/project"), "0ther000-x", { cwd: "/other/project", day: 30 });

    const c = start(agentDir, cwd, ["--no-session", "--provider", "replay", "--model", "demo"]);
    const { sessions } = await c.ok({ type: "list_sessions" });
    expect(sessions).toHaveLength(1000);
    const modified = sessions.map((s: { modified: string }) => s.modified);
    expect([...modified].sort().reverse()).toEqual(modified);
    const first = sessions.find((s: { id: string }) => s.id.startsWith("00000000"));
    expect(first).toEqual({
      path: join(here, "2026-11-01T09-00-00-000Z_00000000-0000-4000-8000-000000000000.jsonl"),
      id: "00000000-0000-4000-8000-000000000000",
      cwd,
      name: "named 0",
      created: "2026-11-01T09:00:00.000Z",
      modified: "2026-11-01T10:00:00.000Z",
      messageCount: 2,
      firstMessage: "question 0 of 00000000-0000-4000-8000-000000000000",
    });
    expect(sessions.find((s: { id: string }) => s.id.startsWith("00000004"))).toMatchObject({ messageCount: 10, modified: "2026-11-05T10:04:00.000Z" });

    const all = (await c.ok({ type: "list_sessions", all: true })).sessions;
    expect(all).toHaveLength(1001);
    expect(all[0]).toMatchObject({ id: "0ther000-x", cwd: "/other/project" });
    expect(await c.request({ type: "list_sessions", all: "yes" }, undefined, { unchecked: true })).toMatchObject({ success: false, error: "Invalid all: expected boolean" });
  });

  it("includes the running session once its file exists, with its name", async () => {
    const { agentDir, cwd } = folders();
    const c = start(agentDir, cwd, ["--provider", "replay", "--model", "demo", "--name", "live"]);
    await c.ok({ type: "prompt", message: "first words" });
    await c.waitForEvent("agent_end");
    const { sessions } = await c.ok({ type: "list_sessions" });
    expect(sessions).toHaveLength(1);
    const state = await c.ok({ type: "get_state" });
    expect(sessions[0]).toMatchObject({ id: state.sessionId, path: state.sessionFile, name: "live", firstMessage: "first words", messageCount: state.messageCount });
  });

  it("import_session brings a pi session (version 3, ~ path) over: copied into this folder's sessions, listed, its messages loaded", async () => {
    const { agentDir, cwd } = folders();
    const home = realpathSync(tempDir("atomic-home-"));
    dirs.push(home);
    const piFolder = join(home, ".pi", "agent", "sessions", "--home-me-proj--");
    mkdirSync(piFolder, { recursive: true });
    const usage = { input: 5, output: 3, cacheRead: 0, cacheWrite: 0, totalTokens: 8, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
    const piLines = [
      { type: "session", version: 3, id: "0e1f2a3b-pi00-4000-8000-000000000001", timestamp: "2026-10-01T08:00:00.000Z", cwd: "/home/me/proj" },
      { type: "model_change", id: "a0000001", parentId: null, timestamp: "2026-10-01T08:00:00.001Z", provider: "anthropic", modelId: "claude-sonnet-4-5" },
      { type: "thinking_level_change", id: "a0000002", parentId: "a0000001", timestamp: "2026-10-01T08:00:00.002Z", thinkingLevel: "high" },
      {
        type: "message",
        id: "a0000003",
        parentId: "a0000002",
        timestamp: "2026-10-01T08:00:01.000Z",
        message: { role: "user", content: [{ type: "text", text: "What does main.ts do?" }], timestamp: 1790000001000 },
      },
      {
        type: "message",
        id: "a0000004",
        parentId: "a0000003",
        timestamp: "2026-10-01T08:00:05.000Z",
        message: {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "Look.", thinkingSignature: "sig" },
            { type: "toolCall", id: "toolu_1", name: "read", arguments: { path: "main.ts" } },
          ],
          api: "anthropic-messages",
          provider: "anthropic",
          model: "claude-sonnet-4-5",
          usage,
          stopReason: "toolUse",
          timestamp: 1790000005000,
        },
      },
      {
        type: "message",
        id: "a0000005",
        parentId: "a0000004",
        timestamp: "2026-10-01T08:00:06.000Z",
        message: { role: "toolResult", toolCallId: "toolu_1", toolName: "read", content: [{ type: "text", text: "console.log(1)" }], isError: false, timestamp: 1790000006000 },
      },
      {
        type: "message",
        id: "a0000006",
        parentId: "a0000005",
        timestamp: "2026-10-01T08:00:09.000Z",
        message: {
          role: "assistant",
          content: [{ type: "text", text: "It prints 1." }],
          api: "anthropic-messages",
          provider: "anthropic",
          model: "claude-sonnet-4-5",
          usage,
          stopReason: "stop",
          timestamp: 1790000009000,
        },
      },
      { type: "custom_message", id: "a0000007", parentId: "a0000006", timestamp: "2026-10-01T08:00:10.000Z", customType: "note", content: "from an extension", display: true },
      { type: "branch_summary", id: "a0000008", parentId: "a0000006", timestamp: "2026-10-01T08:00:11.000Z", fromId: "a0000007", summary: "Explored main.ts." },
      { type: "label", id: "a0000009", parentId: "a0000008", timestamp: "2026-10-01T08:00:12.000Z", targetId: "a0000003", label: "start" },
      { type: "session_info", id: "a000000a", parentId: "a0000009", timestamp: "2026-10-01T08:00:13.000Z", name: "pi work" },
    ];
    const piFile = join(piFolder, "2026-10-01T08-00-00-000Z_0e1f2a3b-pi00-4000-8000-000000000001.jsonl");
    writeFileSync(piFile, piLines.map((line) => JSON.stringify(line)).join("\n") + "\n");
    const original = readFileSync(piFile, "utf8");

    const c = new RpcClient({ agentDir, cwd, args: ["--mode", "rpc", "--provider", "replay", "--model", "demo"], env: { HOME: home } });
    clients.push(c);
    expect(await c.ok({ type: "import_session", inputPath: "~/.pi/agent/sessions/--home-me-proj--/2026-10-01T08-00-00-000Z_0e1f2a3b-pi00-4000-8000-000000000001.jsonl" })).toEqual({
      cancelled: false,
    });
    const state = await c.ok({ type: "get_state" });
    expect(state).toMatchObject({ sessionId: "0e1f2a3b-pi00-4000-8000-000000000001", sessionName: "pi work" });
    expect(state.sessionFile.startsWith(sessionFolder(agentDir, cwd))).toBe(true);
    expect((await c.ok({ type: "get_messages" })).messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect((await c.ok({ type: "get_entries" })).entries).toHaveLength(10);
    expect(c.stderr).not.toMatch(/Skipped/);
    const { sessions } = await c.ok({ type: "list_sessions" });
    expect(sessions).toEqual([
      {
        path: state.sessionFile,
        id: "0e1f2a3b-pi00-4000-8000-000000000001",
        cwd: "/home/me/proj",
        name: "pi work",
        created: "2026-10-01T08:00:00.000Z",
        modified: new Date(1790000009000).toISOString(),
        messageCount: 4,
        firstMessage: "What does main.ts do?",
      },
    ]);
    expect(readFileSync(piFile, "utf8")).toBe(original);
  });
});
