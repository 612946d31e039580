/** session_before_compact (cancel, supplied text, pi's form, its payload) and session_compact. */
import { afterEach, describe, expect, it } from "vitest";
import type { CompactionEntry, SessionEntry } from "../session/api.js";
import type { HookPayload } from "../../kernel/index.js";
import { bootCompaction, conversation, type CompactionHarness } from "./harness.test-support.js";

let h: CompactionHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

type BeforeCompact = HookPayload<"session_before_compact">;

async function ready(): Promise<CompactionHarness> {
  h = await bootCompaction();
  await h.fill(conversation(30));
  return h;
}

const lastEntry = async (): Promise<SessionEntry> => (await h!.invoke("get_entries")).entries.at(-1);

describe("compaction hooks", () => {
  it("should give taps pi's preparation, frozen, and let them supply the text (rung extension)", async () => {
    await ready();
    let seen: BeforeCompact | undefined;
    h!.kernel.hook("session_before_compact").tap("ext", (event) => {
      seen = event;
      return { compactedText: "X\nY" };
    });
    const notified: unknown[] = [];
    h!.kernel.hook("session_compact").tap("ext", (event) => void notified.push(event));
    const result = await h!.invoke("compact");

    expect(h!.requests).toHaveLength(0);
    expect(result).toMatchObject({ compactedText: "X\nY", rung: "extension", stats: { linesBefore: 83, linesKept: 2, linesDeleted: 81, rangeCount: 0 } });
    const entry = (await lastEntry()) as CompactionEntry;
    expect(entry).toMatchObject({ summary: "X\nY", fromHook: true, details: { rung: "extension" } });
    expect(notified).toEqual([{ reason: "manual", result, compactionEntry: entry, fromExtension: true }]);

    const preparation = seen!.preparation;
    expect(seen).toMatchObject({ reason: "manual", parameters: { compression_ratio: 0.5, preserve_recent: 2 } });
    expect(preparation.messagesToSummarize).toHaveLength(28);
    expect(preparation.retainedTail).toHaveLength(2);
    expect(preparation).toMatchObject({ turnPrefixMessages: [], isSplitTurn: false, lineCount: 83, firstKeptEntryId: result.firstKeptEntryId });
    expect(preparation.tokensBefore).toBe(result.tokensBefore);
    expect(preparation.fileOps.read).toBeInstanceOf(Set);
    expect(seen!.branchEntries.length).toBeGreaterThanOrEqual(30);
    expect(seen!.signal).toBeInstanceOf(AbortSignal);
    expect(Object.isFrozen(preparation) && Object.isFrozen(preparation.messagesToSummarize[0])).toBe(true);
  });

  it("should accept pi's { compaction: { summary, firstKeptEntryId, details } }", async () => {
    await ready();
    h!.kernel.hook("session_before_compact").tap("ext", () => ({ compaction: { summary: "Summary of it all", firstKeptEntryId: null, tokensBefore: 1, details: { title: "t" } } }));
    const result = await h!.invoke("compact");
    expect(result).toMatchObject({ compactedText: "Summary of it all", firstKeptEntryId: null, rung: "extension" });
    expect(await lastEntry()).toMatchObject({ firstKeptEntryId: null, fromHook: true, details: { extension: { title: "t" } } });
    const { messages } = await h!.invoke("get_messages");
    expect(messages[0].content).toMatch(/Summary of it all$/);
  });

  it("should refuse a blank supplied text and an unknown firstKeptEntryId, writing nothing", async () => {
    await ready();
    const answers = [{ compactedText: "  " }, { compaction: { summary: "S", firstKeptEntryId: "nope" } }];
    h!.kernel.hook("session_before_compact").tap("ext", () => answers.shift());
    await expect(h!.invoke("compact")).rejects.toThrow("Compaction failed: session_before_compact returned a blank compacted text");
    await expect(h!.invoke("compact")).rejects.toThrow("Compaction failed: session_before_compact returned firstKeptEntryId nope, which is not on the current branch");
    expect((await lastEntry()).type).toBe("message");
  });

  it("should cancel on { cancel: true } and on a throwing tap (guard: fails closed, reported)", async () => {
    await ready();
    const answers: (() => unknown)[] = [
      () => ({ cancel: true }),
      () => {
        throw new Error("tap broke");
      },
    ];
    const reported: { hook: string; error: string }[] = [];
    h!.kernel.hook("plugin_error").tap("test", (event) => {
      reported.push(event);
    });
    h!.kernel.hook("session_before_compact").tap("ext", () => answers.shift()!() as undefined);
    await expect(h!.invoke("compact")).rejects.toThrow("Compaction cancelled");
    await expect(h!.invoke("compact")).rejects.toThrow("Compaction cancelled");
    expect(h!.events.filter((e) => e.type === "compaction_end").map((e) => (e as { aborted: boolean }).aborted)).toEqual([true, true]);
    expect(reported).toEqual([expect.objectContaining({ hook: "session_before_compact", error: expect.stringContaining("tap broke") })]);
    expect(h!.requests).toHaveLength(0);
  });

  it("should still hand taps a copy when a message holds data a structured clone refuses", async () => {
    await ready();
    const details = { render: () => "not cloneable" };
    await h!.fill([{ role: "toolResult", toolCallId: "c1", toolName: "x", content: [{ type: "text", text: "out" }], details, isError: false, timestamp: 3 }]);
    await h!.fill(conversation(2, "late"));
    let seen: BeforeCompact | undefined;
    h!.kernel.hook("session_before_compact").tap("ext", (event) => void (seen = event));
    h!.script({ text: "1,1" });
    expect((await h!.invoke("compact")).rung).toBe("planned");
    expect(seen!.preparation.messagesToSummarize).toHaveLength(31);
    expect(seen!.preparation.fileOps.read).toBeInstanceOf(Set);
  });

  it("should plan as usual when taps answer nothing, and pass customInstructions through", async () => {
    await ready();
    let instructions: string | undefined;
    h!.kernel.hook("session_before_compact").tap("ext", (event) => void (instructions = event.customInstructions));
    h!.script({ text: "1,1" });
    const result = await h!.invoke("compact", { customInstructions: "focus on tests" });
    expect(result.rung).toBe("planned");
    expect(instructions).toBe("focus on tests");
  });
});
