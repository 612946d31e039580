/** Automatic compaction in process: threshold before and after a run, overflow with one retry. */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { OutEvent, Settings } from "../../kernel/index.js";
import type { StreamRequest } from "../../lib/llm/index.js";
import { bootCompaction, conversation, isPlannerRequest, plannerText, type CompactionHarness } from "./harness.test-support.js";

let h: CompactionHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const OVERFLOW = "400 prompt is too long: 250000 tokens > 100000 maximum";
/** A planner that deletes every "detail" line. */
const deleteDetails = (request: StreamRequest) => ({
  text: plannerText(request)
    .split("\n")
    .flatMap((line) => {
      const number = /^(\d+)\u2192detail /.exec(line)?.[1];
      return number ? [`${number},${number}`] : [];
    })
    .join("\n"),
});

async function start(settings: Settings = {}): Promise<CompactionHarness> {
  h = await bootCompaction({ settings });
  await h.fill(conversation(30));
  return h;
}

async function prompt(message = "go"): Promise<number> {
  const from = h!.events.length;
  await h!.invoke("prompt", { message });
  await h!.kernel.services.get("agent").waitForIdle();
  return from;
}

const types = (events: OutEvent[]) => events.map((e) => e.type).filter((t) => !t.startsWith("message_") && !t.startsWith("turn_") && t !== "queue_update");
const ends = (events: OutEvent[]) => events.filter((e) => e.type === "compaction_end") as (OutEvent & Record<string, any>)[];

describe("automatic compaction", () => {
  it("threshold: compacts before the prompt's first LLM call, which then carries the compacted text", async () => {
    await start({ compaction: { reserveTokens: 99_900 } });
    h!.script(deleteDetails, { text: "done" });
    const from = await prompt();
    expect(types(h!.events.slice(from))).toEqual(["compaction_start", "compaction_end", "agent_start", "agent_end"]);
    const [end] = ends(h!.events.slice(from));
    expect(end).toMatchObject({ reason: "threshold", aborted: false, willRetry: false, result: { rung: "planned" } });
    expect(end!.result.backupPath).toMatch(/\.auto-compact\.bak$/);
    expect(isPlannerRequest(h!.requests[0]!)).toBe(true);
    const sent = JSON.stringify(h!.requests[1]!.context.messages);
    expect(sent).toContain("(filtered 1 lines)");
    expect(sent).not.toContain("detail 3:");
    expect(sent).toContain('"go"');
  });

  it("threshold: compacts after a run whose answer reports usage above it", async () => {
    await start({ compaction: { reserveTokens: 95_000 } });
    h!.script({ text: "big answer", usage: 6000 }, deleteDetails);
    const from = await prompt();
    expect(types(h!.events.slice(from))).toEqual(["agent_start", "agent_end", "compaction_start", "compaction_end"]);
    expect(ends(h!.events.slice(from))[0]).toMatchObject({ reason: "threshold", willRetry: false });
    expect((await h!.invoke("get_session_stats")).contextUsage.tokens).toBeNull();
  });

  it("overflow: compacts, continues the prompt once, and the failed turn leaves the context", async () => {
    await start();
    h!.script({ error: OVERFLOW }, deleteDetails, { text: "recovered" });
    const from = await prompt();
    expect(types(h!.events.slice(from))).toEqual(["agent_start", "agent_end", "compaction_start", "compaction_end", "agent_start", "agent_end"]);
    const [end] = ends(h!.events.slice(from));
    expect(end).toMatchObject({ reason: "overflow", aborted: false, willRetry: true, result: { rung: "planned" } });
    expect(end!.result.backupPath).toMatch(/\.overflow-auto-compact\.bak$/);
    // The continuation sends the compacted text with the prompt in the kept tail.
    const continuation = JSON.stringify(h!.requests[2]!.context.messages);
    expect(continuation).toContain("[User]: go");
    expect(continuation).not.toContain("detail 3:");
    // The continuation's call names the overflowed answer it retries (a virtual model's `retry`); the planner's does not.
    expect(h!.requests[2]!.options.retrying).toMatchObject({ role: "assistant", stopReason: "error", errorMessage: OVERFLOW });
    expect(h!.requests[1]!.options.retrying).toBeUndefined();
    const { messages } = await h!.invoke("get_messages");
    expect(messages.map((m: { role: string; stopReason?: string }) => [m.role, m.stopReason])).toEqual([
      ["custom", undefined],
      ["assistant", "stop"],
    ]);
  });

  it("overflow twice: reports unresolvedOverflow and does not retry again", async () => {
    await start();
    h!.script({ error: OVERFLOW }, deleteDetails, { error: OVERFLOW }, { text: "never" });
    const from = await prompt();
    const all = ends(h!.events.slice(from));
    expect(all).toHaveLength(2);
    expect(all[1]).toEqual({
      type: "compaction_end",
      reason: "overflow",
      result: null,
      aborted: false,
      willRetry: false,
      unresolvedOverflow: true,
      errorMessage: `Context overflow recovery failed after one compact-and-retry attempt: ${OVERFLOW}`,
    });
    expect(h!.requests).toHaveLength(3);
    expect(h!.events.slice(from).filter((e) => e.type === "agent_start")).toHaveLength(2);
  });

  it("overflow with a failing planner: the whole region goes (rung fresh) and the prompt continues", async () => {
    await start();
    h!.script({ error: OVERFLOW }, { error: "401 invalid x-api-key" }, { text: "recovered" });
    const from = await prompt();
    const [end] = ends(h!.events.slice(from));
    expect(end).toMatchObject({ willRetry: true, result: { rung: "fresh", compactedText: "(filtered 86 lines)", stats: { linesDeleted: 86, rangeCount: 1 } } });
    // Region m-0..m-28; the tail is m-29 and the prompt (the failed turn is not visible).
    expect(JSON.stringify(h!.requests[2]!.context.messages)).toContain("(filtered 86 lines)\\n\\n[Assistant]: m-29");
  });

  it("set_auto_compaction false: persisted, reported, and an overflow is left alone", async () => {
    await start();
    await h!.invoke("set_auto_compaction", { enabled: false });
    expect(JSON.parse(await readFile(join(h!.dir, "settings.json"), "utf8"))).toMatchObject({ compaction: { enabled: false } });
    expect(await h!.invoke("get_state")).toMatchObject({ autoCompactionEnabled: false, isCompacting: false });
    h!.script({ error: OVERFLOW });
    const from = await prompt();
    expect(ends(h!.events.slice(from))).toEqual([]);
    expect(h!.requests).toHaveLength(1);
  });

  it("abort during a threshold compaction: compaction_end aborted first, then the run ends aborted", async () => {
    await start({ compaction: { reserveTokens: 99_900 } });
    h!.script({ hold: true });
    await h!.invoke("prompt", { message: "go" });
    const agent = h!.kernel.services.get("agent");
    while (h!.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
    expect(await h!.invoke("get_state")).toMatchObject({ isCompacting: true, isStreaming: true });
    const from = h!.events.length;
    await agent.abort(7);
    expect(types(h!.events.slice(from))).toEqual(["compaction_end", "agent_start", "agent_end"]);
    expect(ends(h!.events.slice(from))[0]).toMatchObject({ reason: "threshold", aborted: true, result: null });
    expect(h!.requests).toHaveLength(1);
  });
});
