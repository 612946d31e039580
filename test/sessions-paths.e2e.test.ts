/**
 * Paths a client gives the session commands, over the built CLI: where export_html writes by
 * default and what it does with a folder or a blank path, blank session paths, `--session` on an
 * empty file (as switch_session), and why a file that is no session was refused.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RpcClient, runCli, tempDir, textTurn, writeCassette, type Record_ } from "./helpers/rpc-client.js";

const clients: RpcClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

/** A persisted session on a replay cassette; `args` are added to the command line. */
function start(args: string[] = [], folders: { agentDir?: string; cwd?: string } = {}): RpcClient {
  const agentDir = folders.agentDir ?? tempDir("atomic-agent-");
  writeCassette(agentDir, "chat", [textTurn("Hello there."), textTurn("Hello again.")]);
  const client = new RpcClient({ agentDir, ...(folders.cwd ? { cwd: folders.cwd } : {}), args: ["--mode", "rpc", "--provider", "replay", "--model", "chat", ...args] });
  clients.push(client);
  return client;
}

async function promptAndWait(c: RpcClient, message: string): Promise<void> {
  const from = c.records.length;
  await c.ok({ type: "prompt", message });
  await c.waitForEvent("agent_end", 10_000, from);
}

const lineTypes = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as Record_).type);

describe("export_html: where the page goes", () => {
  it("without outputPath (or with an empty one) the page is atomic-session-<session file name>.html in the working folder, not beside the session file", async () => {
    // The session files live in another folder than the working folder.
    const sessionDir = tempDir("atomic-sessions-");
    const c = start(["--session-dir", sessionDir]);
    await promptAndWait(c, "export me");
    const sessionFile = String((await c.ok({ type: "get_state" })).sessionFile);
    expect(sessionFile.startsWith(sessionDir)).toBe(true);
    const expected = join(c.cwd, `atomic-session-${basename(sessionFile, ".jsonl")}.html`);

    expect(await c.ok({ type: "export_html" })).toEqual({ path: expected });
    expect(readFileSync(expected, "utf8")).toContain("export me");
    expect(await c.ok({ type: "export_html", outputPath: "" })).toEqual({ path: expected });
    expect(readdirSync(sessionDir).filter((name) => name.endsWith(".html"))).toEqual([]);
  });

  it("an outputPath ending in a separator names a folder: it is created and the page gets its default name inside it", async () => {
    const c = start();
    await promptAndWait(c, "into a folder");
    const sessionFile = String((await c.ok({ type: "get_state" })).sessionFile);
    const { path } = await c.ok({ type: "export_html", outputPath: "exports/today/" });
    expect(path).toBe(join(c.cwd, "exports", "today", `atomic-session-${basename(sessionFile, ".jsonl")}.html`));
    expect(readFileSync(path, "utf8")).toContain("into a folder");
  });

  it("a blank outputPath is refused, naming the field, and writes nothing", async () => {
    const c = start();
    await promptAndWait(c, "hello");
    expect(await c.request({ type: "export_html", outputPath: "   " })).toMatchObject({
      success: false,
      error: 'Invalid outputPath: expected a file path, got "   "',
    });
    expect(readdirSync(c.cwd)).toEqual([]);
  });
});

describe("blank session paths", () => {
  it("switch_session, import_session and new_session refuse an empty or blank path, naming the field; the session stays", async () => {
    const c = start();
    await promptAndWait(c, "keep me");
    const before = await c.ok({ type: "get_state" });
    for (const [command, field] of [
      ["switch_session", "sessionPath"],
      ["import_session", "inputPath"],
      ["new_session", "parentSession"],
    ] as const) {
      for (const value of ["", "  "]) {
        expect(await c.request({ type: command, [field]: value })).toMatchObject({
          success: false,
          error: `Invalid ${field}: expected a path, got ${JSON.stringify(value)}`,
        });
      }
    }
    expect(await c.ok({ type: "get_state" })).toMatchObject({ sessionFile: before.sessionFile, sessionId: before.sessionId, messageCount: 2 });
  });
});

describe("--session on an empty file", () => {
  it("starts a new session written there, as switch_session does", async () => {
    const cwd = tempDir("atomic-cwd-");
    const file = join(cwd, "fresh.jsonl");
    writeFileSync(file, "");
    const c = start(["--session", "fresh.jsonl"], { cwd });
    expect(await c.ok({ type: "get_state" })).toMatchObject({ sessionFile: file, messageCount: 0 });
    await promptAndWait(c, "first words");
    expect(lineTypes(file)).toEqual(["session", "message", "message"]);
    await c.close();

    // Reopened, it is that conversation.
    const again = start(["--session", file], { cwd });
    expect((await again.ok({ type: "get_messages" })).messages).toHaveLength(2);
  });
});

describe("a file that is no session: the error says why", () => {
  it("names an empty file, a first line that is no session header, a folder and a FIFO", async () => {
    const c = start();
    const empty = join(c.cwd, "empty.jsonl");
    writeFileSync(empty, "");
    const blank = join(c.cwd, "blank.jsonl");
    writeFileSync(blank, "\n\n");
    const notes = join(c.cwd, "notes.txt");
    writeFileSync(notes, "just some notes\n");
    const json = join(c.cwd, "package.jsonl");
    writeFileSync(json, '{"name":"pkg"}\n{"type":"message"}\n');
    const folder = join(c.cwd, "folder.jsonl");
    mkdirSync(folder);
    const cases: [string, string][] = [
      [empty, "it is empty"],
      [blank, "it holds only blank lines"],
      [notes, "line 1 is not JSON"],
      [json, "line 1 is not a session header"],
      [folder, "it is a directory, not a regular file"],
    ];
    if (process.platform !== "win32") {
      const fifo = join(c.cwd, "pipe.jsonl");
      execFileSync("mkfifo", [fifo]);
      cases.push([fifo, "it is a FIFO, not a regular file"]);
    }
    for (const [path, reason] of cases) {
      expect(await c.request({ type: "import_session", inputPath: path })).toMatchObject({ success: false, error: `Not a valid session file: ${path} (${reason})` });
    }
    expect(await c.request({ type: "switch_session", sessionPath: notes })).toMatchObject({ success: false, error: `Not a valid session file: ${notes} (line 1 is not JSON)` });

    const run = await runCli(["--mode", "rpc", "--session", json], { agentDir: c.agentDir, cwd: c.cwd });
    expect(run.stderr).toBe(`atomic: Not a valid session file: ${json} (line 1 is not a session header) (--session)\n`);
    expect(run.code).toBe(2);
    expect(existsSync(join(c.cwd, "package.jsonl"))).toBe(true);
  });
});
