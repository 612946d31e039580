/**
 * Session audit over the built CLI: every session query answers correctly on a 100,000-entry
 * file, the export embeds every branch and the leaf, clone keeps labels without breaking the
 * parent chain, and context usage is null right after a compaction. How fast they answer is
 * measured by bench/session-load.mjs and bench/export-html.mjs (a timed assertion here failed on
 * a loaded machine). Responses are read with a linear framer.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, tempDir, textTurn, writeCassette } from "./helpers/rpc-client.js";
import { NODE } from "./helpers/node.js";

type Response = { id: string; success: boolean; error?: string; data?: any };

class LinearClient {
  readonly child: ChildProcessWithoutNullStreams;
  readonly cwd = tempDir("atomic-cwd-");
  #parts: Buffer[] = [];
  #waiting = new Map<string, (response: Response) => void>();
  #next = 0;

  constructor() {
    const agentDir = tempDir("atomic-agent-");
    writeCassette(agentDir, "chat", [textTurn("Hello.")]);
    this.child = spawn(NODE, [CLI, "--mode", "rpc", "--provider", "replay", "--model", "chat"], {
      cwd: this.cwd,
      env: { ...process.env, ATOMIC_CODING_AGENT_DIR: agentDir },
    });
    this.child.stdout.on("data", (chunk: Buffer) => {
      let start = 0;
      for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
        this.#parts.push(chunk.subarray(start, newline));
        const record = JSON.parse(Buffer.concat(this.#parts).toString("utf8"));
        this.#parts = [];
        start = newline + 1;
        if (record.type === "response") this.#waiting.get(record.id)?.(record);
      }
      if (start < chunk.length) this.#parts.push(chunk.subarray(start));
    });
  }

  request(command: Record<string, unknown>): Promise<Response> {
    const id = `a${this.#next++}`;
    const response = new Promise<Response>((resolve) => this.#waiting.set(id, resolve));
    this.child.stdin.write(JSON.stringify({ ...command, id }) + "\n");
    return response;
  }

  /** The response data; throws when the command failed. */
  async ok(command: Record<string, unknown>): Promise<any> {
    const response = await this.request(command);
    if (!response.success) throw new Error(`${String(command.type)} failed: ${response.error}`);
    return response.data;
  }
}

const clients: LinearClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => (c.child.kill("SIGKILL"), new Promise((resolve) => c.child.once("exit", resolve)))));
});
function start(): LinearClient {
  const client = new LinearClient();
  clients.push(client);
  return client;
}

const TS = "2026-01-01T00:00:00.000Z";
const header = (id: string) => ({ type: "session", version: 1, id, timestamp: TS, cwd: "/tmp" });
const id = (i: number) => i.toString(16).padStart(8, "0");
const userMsg = (text: string, timestamp = 1) => ({ role: "user", content: text, timestamp });
const assistantMsg = (text: string, timestamp = 2) => ({
  role: "assistant",
  content: [
    { type: "text", text },
    { type: "toolCall", id: `c${timestamp}`, name: "read", arguments: { path: "a.ts" } },
  ],
  api: "replay",
  provider: "replay",
  model: "chat",
  usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.001 } },
  stopReason: "stop",
  timestamp,
});
const line = (entry: object) => JSON.stringify(entry);
function writeSession(path: string, entries: object[]): string {
  writeFileSync(path, [line(header(`s-${entries.length}`)), ...entries.map(line)].join("\n") + "\n");
  return path;
}

/** n messages; deep: one chain that branches back every 1000 entries; wide: 1000 branches of n/1000 off the root. */
function bigSession(n: number, shape: "deep" | "wide"): object[] {
  const entries: object[] = [];
  for (let i = 0; i < n; i++) {
    let parentId: string | null = i === 0 ? null : id(i - 1);
    if (shape === "deep" && i % 1000 === 999) parentId = id(i - 3);
    if (shape === "wide" && i % (n / 1000) === 1) parentId = id(0);
    const message = i % 2 === 0 ? userMsg(`question ${i} <b>&</b>`, i) : assistantMsg(`answer ${i} with **markdown**`, i);
    entries.push({ type: "message", id: id(i), parentId, timestamp: TS, message });
  }
  return entries;
}

describe("a 100,000-entry session", () => {
  it("loads and answers every session query", async () => {
    const c = start();
    const file = writeSession(join(c.cwd, "big.jsonl"), bigSession(100_000, "deep"));
    await c.ok({ type: "switch_session", sessionPath: file });
    expect((await c.ok({ type: "get_entries" })).entries).toHaveLength(100_000);
    expect((await c.ok({ type: "get_entries", since: id(50_000) })).entries).toHaveLength(49_999);
    expect((await c.ok({ type: "get_entries", since: id(99_998) })).entries).toHaveLength(1);
    expect((await c.ok({ type: "get_fork_messages" })).messages).toHaveLength(50_000);
    expect(await c.ok({ type: "get_session_stats" })).toMatchObject({ userMessages: 50_000, assistantMessages: 50_000, toolCalls: 50_000, totalMessages: 100_000 });
    expect((await c.ok({ type: "get_messages" })).messages.length).toBeGreaterThan(99_000);
    const { path } = await c.ok({ type: "export_html", outputPath: join(c.cwd, "big.html") });
    const html = readFileSync(path, "utf8");
    expect(html).toContain("answer 99999 with <strong>markdown</strong>");
    expect(html).toContain("question 0 &lt;b&gt;&amp;&lt;/b&gt;");
    const embedded = JSON.parse(Buffer.from(/<template id="session-data" data-encoding="base64">([^<]*)</.exec(html)![1]!, "base64").toString("utf8"));
    expect(embedded.entries).toHaveLength(100_000);
    await c.ok({ type: "clone" });

    const wide = writeSession(join(c.cwd, "wide.jsonl"), bigSession(100_000, "wide"));
    await c.ok({ type: "switch_session", sessionPath: wide });
    const { tree } = await c.ok({ type: "get_tree" });
    expect(tree).toHaveLength(1);
    expect(tree[0].children).toHaveLength(1000);
  }, 120_000);
});

describe("session semantics", () => {
  it("export embeds every branch and the leaf; clone keeps labels and an unbroken chain", async () => {
    const c = start();
    const entries = [
      { type: "message", id: "u1", parentId: null, timestamp: TS, message: userMsg("first") },
      { type: "message", id: "a1", parentId: "u1", timestamp: TS, message: assistantMsg("abandoned", 3) },
      { type: "message", id: "a2", parentId: "u1", timestamp: TS, message: assistantMsg("kept", 4) },
      { type: "label", id: "l1", parentId: "a2", timestamp: "2026-01-02T00:00:00.000Z", targetId: "u1", label: "start" },
      { type: "message", id: "u2", parentId: "l1", timestamp: TS, message: userMsg("second", 5) },
    ];
    const file = writeSession(join(c.cwd, "branched.jsonl"), entries);
    await c.ok({ type: "switch_session", sessionPath: file });

    const data = await c.ok({ type: "export_html" });
    const html = readFileSync(data.path, "utf8");
    const embedded = JSON.parse(Buffer.from(/<template id="session-data" data-encoding="base64">([^<]*)</.exec(html)![1]!, "base64").toString("utf8"));
    expect(embedded.entries.map((e: { id: string }) => e.id)).toEqual(["u1", "a1", "a2", "l1", "u2"]);
    expect(embedded.leafId).toBe("u2");
    expect(html).not.toContain("<script");

    await c.ok({ type: "clone" });
    const cloned = (await c.ok({ type: "get_entries" })).entries;
    expect(cloned.map((e: { id: string; parentId: string | null }) => [e.id, e.parentId]).slice(0, 4)).toEqual(
      [
        ["u1", null],
        ["a2", "u1"],
        ["u2", "a2"],
      ].concat([[cloned[3].id, "u2"]]),
    );
    expect(cloned[3]).toMatchObject({ type: "label", targetId: "u1", label: "start", timestamp: "2026-01-02T00:00:00.000Z" });
    const messages = (await c.ok({ type: "get_messages" })).messages;
    expect(messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant", "user"]);
  });

  it("reports contextUsage tokens and percent as null right after a compaction", async () => {
    const c = start();
    const entries = [
      { type: "message", id: "u1", parentId: null, timestamp: TS, message: userMsg("old question", 1) },
      { type: "message", id: "a1", parentId: "u1", timestamp: TS, message: assistantMsg("old answer", 2) },
      { type: "compaction", id: "c1", parentId: "a1", timestamp: "2026-01-01T00:00:01.000Z", summary: "[User]: old question", firstKeptEntryId: "a1", tokensBefore: 5000 },
    ];
    await c.ok({ type: "switch_session", sessionPath: writeSession(join(c.cwd, "compacted.jsonl"), entries) });
    const stats = await c.ok({ type: "get_session_stats" });
    expect(stats.contextUsage).toMatchObject({ tokens: null, percent: null });
    expect(stats.contextUsage.contextWindow).toBeGreaterThan(0);
  });
});
