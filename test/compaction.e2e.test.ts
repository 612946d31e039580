/**
 * Verbatim compaction over the built CLI and the OpenAI SDK against the loopback fake server,
 * which plays the planner (deletion records) and the overflowing provider: manual `compact`,
 * malformed plans, abort during planning, threshold and overflow compaction with one retry,
 * and what the next LLM request carries afterwards.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RecordedRequest } from "./fake-llm/server.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";
import { waitIdle } from "./helpers/agent-harness.js";
import { RpcClient, tempDir, type Record_ } from "./helpers/rpc-client.js";

// A server per test: nothing scripted for one test can answer another's request.
const fake = useFakeLlm({ perTest: true });
const clients: RpcClient[] = [];
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };
const FILLER = "lorem ipsum dolor sit amet ".repeat(6).trim();
const TS = "2026-01-01T00:00:00.000Z";
/** ollama's wording, as the OpenAI SDK reports a 400. */
const OVERFLOW = "prompt too long; exceeded max context length by 1200 tokens";

afterEach(async () => {
  for (const c of clients.splice(0)) {
    await c.close();
    rmSync(c.agentDir, { recursive: true, force: true });
    rmSync(c.cwd, { recursive: true, force: true });
  }
});

/** models.json: `fake/big` (200k window) and `fake/small` (4,000) served by the fake server. */
function writeModels(agentDir: string): void {
  const model = (id: string, contextWindow: number) => ({ id, reasoning: false, input: ["text"], contextWindow, maxTokens: 1000 });
  const providers = { fake: { baseUrl: `${fake.url}/v1`, api: "openai-completions", apiKey: "test-key", models: [model("big", 200_000), model("small", 4_000)] } };
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers }));
}

/** A 30-message session file (m-0 .. m-29, each with a `detail <i>:` line) answered by `fake/<model>`. */
function writeSession(path: string, model: string, count = 30): string {
  const lines = [JSON.stringify({ type: "session", version: 1, id: "0195f0d0-0000-7000-8000-000000000001", timestamp: TS, cwd: dirname(path) })];
  for (let i = 0; i < count; i++) {
    const text = `m-${i}\ndetail ${i}: ${FILLER}`;
    const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
    const message =
      i % 2 === 0
        ? { role: "user", content: text, timestamp: i }
        : { role: "assistant", content: [{ type: "text", text }], api: "openai-completions", provider: "fake", model, usage, stopReason: "stop", timestamp: i };
    lines.push(JSON.stringify({ type: "message", id: `e${i}`, parentId: i === 0 ? null : `e${i - 1}`, timestamp: TS, message }));
  }
  writeFileSync(path, lines.join("\n") + "\n");
  return path;
}

async function start(options: { model?: "big" | "small"; settings?: Record<string, unknown> } = {}): Promise<{ c: RpcClient; file: string }> {
  const model = options.model ?? "big";
  const agentDir = tempDir("atomic-agent-");
  writeModels(agentDir);
  const c = new RpcClient({ agentDir, args: ["--mode", "rpc", "--model", `fake/${model}`], settings: options.settings, env: NO_KEYS });
  clients.push(c);
  const file = writeSession(join(c.cwd, "work.jsonl"), model);
  await c.ok({ type: "switch_session", sessionPath: file });
  return { c, file };
}

const isPlanner = (request: RecordedRequest) => JSON.stringify(request.body.messages).includes("<numbered-transcript>");
const transcriptOf = (request: RecordedRequest) => String((request.body.messages as { role: string; content: string }[]).find((m) => m.role === "user")!.content);

/** A planner reply deleting every numbered line whose text matches `pattern`. */
const deleting = (pattern: RegExp) => (request: RecordedRequest) => ({
  text: transcriptOf(request)
    .split("\n")
    .flatMap((line) => {
      const match = /^(\d+)\u2192(.*)$/.exec(line);
      return match && pattern.test(match[2]!) ? [`${match[1]},${match[1]}`] : [];
    })
    .join("\n"),
});

const compactionRecords = (records: Record_[], from = 0) => records.slice(from).filter((r) => r.type.startsWith("compaction_") || r.type === "response");
const backups = (file: string) => readdirSync(dirname(file)).filter((name) => name.endsWith(".bak"));

describe("compaction over the CLI", () => {
  it("compact: events, then the protocol's data; the backup is the old file; the next request has the compacted text only", async () => {
    const { c, file } = await start();
    const original = readFileSync(file, "utf8");
    fake.script(deleting(/^detail (\d|1\d|2[0-7]):/), { text: "next answer" });
    const from = c.records.length;
    const response = await c.request({ type: "compact" });
    expect(response.success).toBe(true);
    const data = response.data as Record<string, any>;
    expect(Object.keys(data).sort()).toEqual(["backupPath", "compactedText", "firstKeptEntryId", "parameters", "promptVersion", "rung", "stats", "tokensBefore"]);
    expect(data).toMatchObject({ firstKeptEntryId: "e28", promptVersion: 3, rung: "planned", parameters: { compression_ratio: 0.5, preserve_recent: 2 } });
    expect(data.stats).toMatchObject({ linesBefore: 83, linesDeleted: 28, linesKept: 55, rangeCount: 28 });
    expect(data.stats.tokensAfter).toBeLessThan(data.stats.tokensBefore);
    expect(compactionRecords(c.records, from).map((r) => r.type)).toEqual(["compaction_start", "compaction_end", "response"]);
    expect(c.records.slice(from).find((r) => r.type === "compaction_end")).toEqual({ type: "compaction_end", reason: "manual", result: data, aborted: false, willRetry: false });

    expect(data.backupPath.startsWith(`${file}.`) && data.backupPath.endsWith(".compact.bak")).toBe(true);
    expect(readFileSync(data.backupPath, "utf8")).toBe(original);
    expect(isPlanner(fake.requests[0]!)).toBe(true);

    // get_entries keeps everything; the model sees the compacted text plus the kept tail.
    const { entries } = await c.ok({ type: "get_entries" });
    expect(entries.map((e: { type: string }) => e.type)).toEqual([...Array(30).fill("message"), "compaction"]);
    expect((await c.ok({ type: "get_session_stats" })).contextUsage).toMatchObject({ tokens: null, percent: null });
    await c.ok({ type: "prompt", message: "carry on" });
    await c.waitForEvent("agent_end", 10_000, from);
    const sent = JSON.stringify(fake.requests[1]!.body.messages);
    expect(sent).toContain("(filtered 1 lines)");
    expect(sent).toContain("detail 28:");
    expect(sent).not.toContain("detail 5:");
    expect(sent).toContain("carry on");
  });

  it("a malformed plan fails with the documented string and writes nothing", async () => {
    const { c, file } = await start();
    const before = readFileSync(file, "utf8");
    fake.script({ text: "Sure! Here are the lines to delete:\n2,5" });
    const response = await c.request({ type: "compact" });
    const error = 'Compaction failed: invalid plan (line 1 is not a "start,end" record: "Sure! Here are the lines to delete:")';
    expect(response).toMatchObject({ success: false, error });
    expect(c.records.find((r) => r.type === "compaction_end")).toMatchObject({ result: null, aborted: false, errorMessage: error });
    expect(readFileSync(file, "utf8")).toBe(before);
    expect(backups(file)).toEqual([]);
  });

  it("a transient planner error is retried with the retry settings, with summarization_retry_* events", async () => {
    const { c } = await start({ settings: { retry: { baseDelayMs: 10 } } });
    fake.script({ status: 503, errorMessage: "Service temporarily unavailable" }, deleting(/^detail /));
    const from = c.records.length;
    const data = await c.ok({ type: "compact" });
    expect(data.rung).toBe("planned");
    const retries = c.records.slice(from).filter((r) => r.type.startsWith("summarization_retry_"));
    expect(retries).toEqual([
      { type: "summarization_retry_scheduled", attempt: 1, maxAttempts: 3, delayMs: 10, errorMessage: expect.stringMatching(/^503 /) },
      { type: "summarization_retry_attempt_start", source: "compaction", reason: "manual" },
      { type: "summarization_retry_finished" },
    ]);
    const types = c.types(from);
    expect(types.indexOf("summarization_retry_finished")).toBeLessThan(types.indexOf("compaction_end"));
    expect(fake.requests).toHaveLength(2);
  });

  it("abort during planning: compaction_end aborted, then the compact response, then the abort response", async () => {
    const { c, file } = await start();
    fake.script({ text: "1,2", stall: 1 });
    const from = c.records.length;
    c.send({ type: "compact", id: "compact" });
    await fake.waitForRequests(1);
    c.send({ type: "abort", id: "abort" });
    await c.waitFor((r) => r.type === "response" && r.id === "abort");
    await fake.waitForDisconnect(0);
    const order = compactionRecords(c.records, from).map((r) => (r.type === "response" ? `response:${String(r.id)}` : r.type));
    expect(order).toEqual(["compaction_start", "compaction_end", "response:compact", "response:abort"]);
    expect(c.records.find((r) => r.type === "compaction_end")).toEqual({ type: "compaction_end", reason: "manual", result: null, aborted: true, willRetry: false });
    expect(c.records.find((r) => r.id === "compact")).toMatchObject({ success: false, error: "Compaction cancelled" });
    expect(backups(file)).toEqual([]);
  });

  it("threshold: a small window compacts before the prompt's first LLM call", async () => {
    const { c, file } = await start({ model: "small", settings: { compaction: { reserveTokens: 3_000 } } });
    fake.script(deleting(/^detail /), { text: "done" });
    const from = c.records.length;
    await c.ok({ type: "prompt", message: "go on" });
    await c.waitForEvent("agent_end", 10_000, from);
    const types = c.types(from).filter((t) => ["compaction_start", "compaction_end", "agent_start"].includes(t));
    expect(types).toEqual(["compaction_start", "compaction_end", "agent_start"]);
    expect(c.records.slice(from).find((r) => r.type === "compaction_end")).toMatchObject({ reason: "threshold", willRetry: false, result: { rung: "planned" } });
    expect(backups(file)).toEqual([expect.stringMatching(/\.auto-compact\.bak$/)]);
    const sent = JSON.stringify(fake.requests[1]!.body.messages);
    expect(sent).not.toContain("detail 3:");
    expect(sent).toContain("go on");
  });

  it("overflow: compacts, retries the prompt once and completes; a second overflow is unresolved", async () => {
    const { c } = await start();
    fake.script({ status: 400, errorMessage: OVERFLOW }, deleting(/^detail /), { text: "recovered" });
    let from = c.records.length;
    await c.ok({ type: "prompt", message: "big job" });
    const end = await c.waitForEvent("compaction_end", 10_000, from);
    await c.waitForEvent("agent_end", 10_000, c.records.indexOf(end));
    expect(end).toMatchObject({ reason: "overflow", aborted: false, willRetry: true, result: { rung: "planned" } });
    expect(c.types(from).filter((t) => t === "agent_start")).toHaveLength(2);
    expect(await c.ok({ type: "get_last_assistant_text" })).toEqual({ text: "recovered" });
    expect(JSON.stringify(fake.requests[2]!.body.messages)).toContain("[User]: big job");

    fake.script({ status: 400, errorMessage: OVERFLOW }, deleting(/^\[Assistant\]/), { status: 400, errorMessage: OVERFLOW });
    from = c.records.length;
    await c.ok({ type: "prompt", message: "again" });
    const unresolved = await c.waitFor((r) => r.type === "compaction_end" && r.unresolvedOverflow === true, 10_000, from);
    expect(unresolved).toMatchObject({ reason: "overflow", result: null, willRetry: false });
    expect(String(unresolved.errorMessage)).toMatch(/^Context overflow recovery failed after one compact-and-retry attempt: 400 /);
    expect(String(unresolved.errorMessage)).toContain(OVERFLOW);
    // Reported after the failed run's agent_end (at its run_end), with no third request.
    expect(c.records.indexOf(unresolved)).toBeGreaterThan(c.records.findLastIndex((r) => r.type === "agent_end"));
    await waitIdle(c);
    expect(fake.requests).toHaveLength(6);
  });

  it("agent_settled (opted in) comes once, after the overflow compaction's continuation run", async () => {
    const { c } = await start();
    await c.ok({ type: "set_event_options", agentSettled: true });
    fake.script({ status: 400, errorMessage: OVERFLOW }, deleting(/^detail /), { text: "recovered" });
    const from = c.records.length;
    await c.ok({ type: "prompt", message: "big job" });
    const settled = await c.waitForEvent("agent_settled", 10_000, from);
    const records = c.records.slice(from, c.records.indexOf(settled) + 1);
    expect(records.filter((r) => r.type === "agent_start")).toHaveLength(2);
    expect(records.findIndex((r) => r.type === "compaction_end")).toBeGreaterThan(records.findIndex((r) => r.type === "agent_end"));
    expect(records.findLastIndex((r) => r.type === "agent_end")).toBe(records.length - 2);
    expect(await c.ok({ type: "get_last_assistant_text" })).toEqual({ text: "recovered" });
    expect(c.records.filter((r) => r.type === "agent_settled")).toHaveLength(1);
  });

  it("set_auto_compaction: persisted, reported by get_state, and an overflow is then left alone", async () => {
    const { c } = await start();
    expect(await c.ok({ type: "get_state" })).toMatchObject({ isCompacting: false, autoCompactionEnabled: true });
    await c.ok({ type: "set_auto_compaction", enabled: false });
    expect(JSON.parse(readFileSync(join(c.agentDir, "settings.json"), "utf8")).compaction).toEqual({ enabled: false });
    expect(await c.ok({ type: "get_state" })).toMatchObject({ autoCompactionEnabled: false });
    fake.script({ status: 400, errorMessage: OVERFLOW });
    const from = c.records.length;
    await c.ok({ type: "prompt", message: "x" });
    await c.waitForEvent("agent_end", 10_000, from);
    expect(c.types(from)).not.toContain("compaction_start");
  });
});
