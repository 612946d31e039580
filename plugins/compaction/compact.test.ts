/** `compact` in process: result, events, entry, backup, rebuilt context, hooks, failures. */
import { existsSync } from "node:fs";
import { chmod, readdir, readFile, rename } from "node:fs/promises";
import { dirname } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { CompactionEntry, SessionEntry } from "../session/api.js";
import type { OutEvent } from "../../kernel/index.js";
import type { StreamRequest } from "../../lib/llm/index.js";
import { VERBATIM_PREFIX } from "../session/api.js";
import { bootCompaction, conversation, FILLER, isPlannerRequest, plannerText, user, type CompactionHarness } from "./harness.test-support.js";

let h: CompactionHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

/** A planner that deletes every numbered line matching `pattern` (one record per line). */
const deleteLines = (pattern: RegExp) => (request: StreamRequest) => {
  const records = plannerText(request)
    .split("\n")
    .flatMap((line) => {
      const match = /^(\d+)\u2192(.*)$/.exec(line);
      return match && pattern.test(match[2]!) ? [`${match[1]},${match[1]}`] : [];
    });
  return { text: records.join("\n") };
};

const compactionEvents = (events: OutEvent[]) => events.filter((e) => e.type.startsWith("compaction_"));
const entries = async (): Promise<SessionEntry[]> => (await h!.invoke("get_entries")).entries;

describe("compact", () => {
  it("should plan, rebuild with markers, back up, append the entry and rebuild the context", async () => {
    h = await bootCompaction();
    await h.fill(conversation(30));
    const before = await h.fileText();
    h.script(deleteLines(/^detail (\d|1\d|2[0-7]):/));
    const result = await h.invoke("compact");

    expect(h.requests).toHaveLength(1);
    expect(isPlannerRequest(h.requests[0]!)).toBe(true);
    const all = (await entries()).filter((e) => e.type === "message");
    const boundary = (await entries()).at(-1) as CompactionEntry;
    expect(result).toMatchObject({
      firstKeptEntryId: all[28]!.id,
      promptVersion: 3,
      parameters: { compression_ratio: 0.5, preserve_recent: 2, query: `m-28\ndetail 28: ${FILLER}` },
      rung: "planned",
      stats: { linesBefore: 83, linesDeleted: 28, linesKept: 55, rangeCount: 28 },
    });
    expect(result.compactedText.split("\n").slice(0, 4)).toEqual(["[User]: m-0", "(filtered 1 lines)", "", "[Assistant]: m-1"]);
    expect(result.compactedText).not.toContain("detail");
    expect(result.stats.tokensAfter).toBeLessThan(result.stats.tokensBefore);
    expect(boundary).toMatchObject({ type: "compaction", summary: result.compactedText, firstKeptEntryId: all[28]!.id, tokensBefore: result.tokensBefore });
    expect(boundary.details).toEqual({
      strategy: "verbatim-lines",
      promptVersion: 3,
      parameters: result.parameters,
      stats: result.stats,
      rung: "planned",
      backupPath: result.backupPath,
    });
    expect(boundary.fromHook).toBeUndefined();

    // The backup is the file as it was; it sits next to it.
    expect(result.backupPath).toMatch(/\.jsonl\.\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.compact\.bak$/);
    expect(dirname(result.backupPath)).toBe(dirname(h.sessionFile()!));
    expect(await readFile(result.backupPath, "utf8")).toBe(before);

    expect(compactionEvents(h.events)).toEqual([
      { type: "compaction_start", reason: "manual" },
      { type: "compaction_end", reason: "manual", result, aborted: false, willRetry: false },
    ]);
    const { messages } = await h.invoke("get_messages");
    expect(messages).toHaveLength(1);
    expect(messages[0].content).toBe(`${VERBATIM_PREFIX}${result.compactedText}\n\n[User]: m-28\ndetail 28: ${FILLER}\n\n[Assistant]: m-29\ndetail 29: ${FILLER}`);
    expect((await h.invoke("get_session_stats")).contextUsage).toEqual({ tokens: null, contextWindow: 100_000, percent: null });
    expect(await h.invoke("get_state")).toMatchObject({ isCompacting: false, autoCompactionEnabled: true, messageCount: 1 });
  });

  it("should send the compacted text, not the deleted lines, with the next prompt; usage counts again after an answer", async () => {
    h = await bootCompaction();
    await h.fill(conversation(30));
    h.script(deleteLines(/^detail 1\d:/), { text: "fine", usage: 3000 });
    await h.invoke("compact");
    await h.invoke("prompt", { message: "next step" });
    await h.kernel.services.get("agent").waitForIdle();
    const sent = JSON.stringify(h.requests[1]!.context.messages);
    expect(sent).toContain("detail 9:");
    expect(sent).toContain("(filtered 1 lines)");
    expect(sent).not.toContain("detail 15:");
    expect(sent).toContain("next step");
    expect((await h.invoke("get_session_stats")).contextUsage.tokens).toBe(3005);
  });

  it("should re-compact the previous text: markers merge and the line count stays true", async () => {
    h = await bootCompaction();
    await h.fill(conversation(30));
    h.script(deleteLines(/^detail [0-9]:/));
    const first = await h.invoke("compact");
    await h.fill(conversation(10, "n"));
    h.script((request) => {
      expect(plannerText(request)).toContain(`1\u2192${first.compactedText.split("\n")[0]}`);
      return deleteLines(/^\[Assistant\]: m-[0-9]$/)(request);
    });
    const second = await h.invoke("compact", { preserve_recent: 0 });
    expect(second.firstKeptEntryId).toBeNull();
    // "[Assistant]: m-1" goes, and the marker after it joins its run.
    expect(second.compactedText).toContain("[User]: m-0\n(filtered 1 lines)\n\n(filtered 2 lines)\n\n[User]: m-2");
    expect(second.compactedText).toContain("[Assistant]: n-9\ndetail 9:");
    const boundary = (await entries()).at(-1) as CompactionEntry;
    expect(boundary.firstKeptEntryId).toBeNull();
    expect((await h.invoke("get_messages")).messages.map((m: { role: string }) => m.role)).toEqual(["custom"]);
  });

  it("should be idempotent: compacting again with nothing new and an empty plan changes nothing", async () => {
    h = await bootCompaction();
    await h.fill(conversation(30));
    h.script(deleteLines(/^detail \d:/), { text: "" });
    const first = await h.invoke("compact");
    const second = await h.invoke("compact");
    expect(second.compactedText).toBe(first.compactedText);
    expect(second.firstKeptEntryId).toBe(first.firstKeptEntryId);
    expect(second.stats).toMatchObject({ linesDeleted: 0, rangeCount: 0 });
    const [before, after] = (await entries()).filter((e) => e.type === "compaction") as CompactionEntry[];
    expect(after!.summary).toBe(before!.summary);
  });

  it("should refuse a session too small, with a compaction_end that says so", async () => {
    h = await bootCompaction();
    await h.fill(conversation(4));
    await expect(h.invoke("compact")).rejects.toThrow("Nothing to compact (session too small)");
    await expect(h.invoke("compact", { preserve_recent: 100 })).rejects.toThrow("Nothing to compact (session too small)");
    expect(compactionEvents(h.events).at(-1)).toEqual({
      type: "compaction_end",
      reason: "manual",
      result: null,
      aborted: false,
      willRetry: false,
      errorMessage: "Nothing to compact (session too small)",
    });
    expect(h.requests).toHaveLength(0);
  });

  it("should follow pi's keepRecentTokens when the settings name it: a conversation within it has nothing to compact", async () => {
    // 30 messages of ~30 tokens each: a region of 80+ lines, but under pi's default budget of 20,000 tokens.
    h = await bootCompaction({ settings: { compaction: { keepRecentTokens: 20_000 } } });
    await h.fill(conversation(30));
    await expect(h.invoke("compact")).rejects.toThrow("Nothing to compact (session too small)");
    expect(h.requests).toHaveLength(0);
    await h.dispose();
    // A budget the newest messages exceed: the older ones are compacted as usual.
    h = await bootCompaction({ settings: { compaction: { keepRecentTokens: 100 } } });
    await h.fill(conversation(30));
    h.script(deleteLines(/^detail /));
    expect((await h.invoke("compact")).rung).toBe("planned");
  });

  it("should write nothing for an invalid plan or a planner error", async () => {
    h = await bootCompaction();
    await h.fill(conversation(30));
    const before = await h.fileText();
    h.script({ text: "2,5\nok" }, { error: "401 invalid x-api-key" });
    await expect(h.invoke("compact")).rejects.toThrow('Compaction failed: invalid plan (line 2 is not a "start,end" record: "ok")');
    await expect(h.invoke("compact")).rejects.toThrow("Compaction failed: 401 invalid x-api-key");
    expect(await h.fileText()).toBe(before);
    expect((await readdir(dirname(h.sessionFile()!))).filter((f) => f.endsWith(".bak"))).toEqual([]);
    expect(compactionEvents(h.events).at(-1)).toMatchObject({ type: "compaction_end", result: null, aborted: false, errorMessage: "Compaction failed: 401 invalid x-api-key" });
  });

  it("should fail clearly when the session file can no longer be written, writing nothing", async () => {
    h = await bootCompaction();
    await h.fill(conversation(30));
    await h.fileText();
    const dir = dirname(h.sessionFile()!);
    await rename(dir, `${dir}-moved`);
    h.script({ text: "1,3" });
    await expect(h.invoke("compact")).rejects.toThrow(`Compaction failed: cannot write the session file ${h.sessionFile()}: it no longer exists`);
    expect((await entries()).map((e) => e.type)).not.toContain("compaction");
    expect(existsSync(dir)).toBe(false);
    // Checked before the planner is asked: no model call is spent on it.
    expect(h.requests).toHaveLength(0);
    await rename(`${dir}-moved`, dir);
  });

  // Root may write to a read-only file, so this runs only for ordinary users.
  it.skipIf(process.getuid?.() === 0)("should fail clearly when the session file became read-only", async () => {
    h = await bootCompaction();
    await h.fill(conversation(30));
    await h.fileText();
    await chmod(h.sessionFile()!, 0o444);
    await expect(h.invoke("compact")).rejects.toThrow(`Compaction failed: cannot write the session file ${h.sessionFile()}: it is read-only`);
    expect(h.requests).toHaveLength(0);
    await chmod(h.sessionFile()!, 0o644);
  });

  it("should keep the backup current when an entry lands while the planner runs", async () => {
    h = await bootCompaction();
    await h.fill(conversation(30));
    const agent = h.kernel.services.get("agent");
    h.script(() => {
      void agent.appendMessage(user("arrived during planning"));
      return { text: "1,3" };
    });
    const result = await h.invoke("compact");
    const lines = (await h.fileText()).trimEnd().split("\n");
    expect(lines.at(-2)).toContain("arrived during planning");
    expect(await readFile(result.backupPath, "utf8")).toBe(lines.slice(0, -1).join("\n") + "\n");
  });

  it("should join concurrent compactions from the SDK into one", async () => {
    h = await bootCompaction();
    await h.fill(conversation(30));
    h.script({ text: "1,3" });
    const api = h.kernel.services.get("compaction");
    const [a, b] = await Promise.all([api.compact(), api.compact()]);
    expect(a).toBe(b);
    expect(compactionEvents(h.events).map((e) => e.type)).toEqual(["compaction_start", "compaction_end"]);
    expect(h.requests).toHaveLength(1);
  });

  it("should give an in-memory session no backup", async () => {
    h = await bootCompaction({ noSession: true });
    await h.fill(conversation(30));
    h.script({ text: "1,3" });
    const result = await h.invoke("compact");
    expect(result.backupPath).toBeUndefined();
    expect(result.stats).toMatchObject({ linesDeleted: 3, rangeCount: 1 });
  });

  it("should validate its input", async () => {
    h = await bootCompaction();
    await expect(h.invoke("compact", { preserve_recent: -1 })).rejects.toThrow("Invalid preserve_recent: expected a value >= 0");
    await expect(h.invoke("compact", { preserve_recent: 1.5 })).rejects.toThrow("Invalid preserve_recent: expected integer");
    await expect(h.invoke("compact", { compression_ratio: 1 })).rejects.toThrow("Invalid compression_ratio: expected a number between 0 and 1 (exclusive)");
    await expect(h.invoke("compact", { compression_ratio: 0 })).rejects.toThrow("Invalid compression_ratio: expected a number between 0 and 1 (exclusive)");
  });

  it("should stop a running compaction on abort: compaction_end aborted, Compaction cancelled, nothing written", async () => {
    h = await bootCompaction();
    await h.fill(conversation(30));
    h.script({ hold: true });
    const pending = h.invoke("compact");
    const settled = pending.then(
      () => "resolved",
      (error: Error) => error.message,
    );
    while (h.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
    expect(await h.invoke("get_state")).toMatchObject({ isCompacting: true });
    await h.kernel.services.get("agent").abort(99);
    expect(await settled).toBe("Compaction cancelled");
    expect(compactionEvents(h.events).at(-1)).toEqual({ type: "compaction_end", reason: "manual", result: null, aborted: true, willRetry: false });
    expect((await entries()).map((e) => e.type)).not.toContain("compaction");
    // A compact read before that abort but run after it starts cancelled.
    await expect(h.kernel.commands.invoke("compact", {}, { source: "rpc", seq: 50 })).rejects.toThrow("Compaction cancelled");
  });

  it("should abort a streaming run before compacting", async () => {
    h = await bootCompaction();
    await h.fill(conversation(30));
    h.script({ hold: true }, { text: "1,2" });
    await h.invoke("prompt", { message: "long task" });
    while (h.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
    const result = await h.invoke("compact");
    expect(result.rung).toBe("planned");
    const types = h.events.map((e) => e.type);
    expect(types.lastIndexOf("agent_end")).toBeLessThan(types.indexOf("compaction_start"));
  });
});
