import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AssistantMessage, Model } from "../../../lib/llm/index.js";
import { emptyUsage } from "../../../lib/llm/index.js";
import { collectEntriesForBranchSummary, prepareBranchEntries } from "./branch-entries.js";
import type { SessionEntry } from "./session-context.js";
import { CredentialSynchronizationError, hasTrustRequiringProjectResources, readStoredCredentialFrom } from "./stores.js";
import { type Complete, summaryFunctions } from "./summaries.js";
import type { Context } from "../types/llm.js";

const model = { provider: "fake", id: "m", contextWindow: 1000, reasoning: false } as unknown as Model;
let n = 0;
const entry = (parentId: string | null, fields: Record<string, unknown>): SessionEntry => ({
  id: `e${++n}`,
  parentId,
  timestamp: new Date(0).toISOString(),
  type: "message",
  ...fields,
});
const user = (text: string) => ({ message: { role: "user", content: [{ type: "text", text }], timestamp: 0 } });
const assistant = (text: string, calls: { name: string; path: string }[] = []) => ({
  message: {
    role: "assistant",
    content: [{ type: "text", text }, ...calls.map((call, index) => ({ type: "toolCall", id: `c${index}`, name: call.name, arguments: { path: call.path } }))],
    stopReason: calls.length ? "toolUse" : "stop",
    usage: emptyUsage(),
    timestamp: 0,
  },
});

/** A tree: root -> a1 -> (b: b1 -> b2) and (c: c1). */
function tree() {
  const root = entry(null, user("start"));
  const a1 = entry(root.id, assistant("ok", [{ name: "read", path: "src/a.ts" }]));
  const b1 = entry(a1.id, user("try b"));
  const b2 = entry(
    b1.id,
    assistant("did b", [
      { name: "edit", path: "src/a.ts" },
      { name: "read", path: "src/b.ts" },
    ]),
  );
  const c1 = entry(a1.id, user("try c"));
  const all = [root, a1, b1, b2, c1];
  const byId = new Map(all.map((e) => [e.id, e]));
  const branch = (id?: string) => {
    const path: SessionEntry[] = [];
    for (let at = id ? byId.get(id) : undefined; at; at = at.parentId ? byId.get(at.parentId) : undefined) path.unshift(at);
    return path;
  };
  return { root, a1, b1, b2, c1, session: { getBranch: branch, getEntry: (id: string) => byId.get(id) } };
}

function reply(text: string, stopReason: AssistantMessage["stopReason"] = "stop"): AssistantMessage {
  return {
    role: "assistant",
    content: [{ type: "text", text }],
    stopReason,
    usage: { ...emptyUsage(), input: 10, output: 5, totalTokens: 15 },
    provider: "fake",
    model: "m",
    api: "fake",
    timestamp: 0,
  } as AssistantMessage;
}

function recorder(answer: AssistantMessage | ((context: Context) => AssistantMessage)) {
  const calls: Context[] = [];
  const complete: Complete = async (_model, context) => {
    calls.push(context);
    return typeof answer === "function" ? answer(context) : answer;
  };
  return { calls, complete, prompt: (index = 0) => (calls[index]!.messages[0]!.content as { text: string }[])[0]!.text };
}

describe("branch summaries", () => {
  it("collects the abandoned entries back to the common ancestor, oldest first", () => {
    const { a1, b1, b2, c1, session } = tree();
    expect(collectEntriesForBranchSummary(session, b2.id, c1.id)).toEqual({ entries: [b1, b2], commonAncestorId: a1.id });
    expect(collectEntriesForBranchSummary(session, null, c1.id)).toEqual({ entries: [], commonAncestorId: null });
  });

  it("prepares messages within the budget and tracks the files read and changed", () => {
    const { root, a1, b1, b2 } = tree();
    const all = prepareBranchEntries([root, a1, b1, b2]);
    expect(all.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect([...all.fileOps.read].sort()).toEqual(["src/a.ts", "src/b.ts"]);
    expect([...all.fileOps.edited]).toEqual(["src/a.ts"]);
    // A budget of one message keeps the newest.
    const tight = prepareBranchEntries([root, a1, b1, b2], all.totalTokens - 1);
    expect(tight.messages.length).toBeLessThan(4);
    expect(tight.messages.at(-1)).toBe(b2.message);
  });

  it("generateBranchSummary asks the model once and appends the file lists", async () => {
    const { b1, b2 } = tree();
    const llm = recorder(reply("## Goal\nTry b"));
    const { generateBranchSummary } = summaryFunctions(llm.complete);
    const result = await generateBranchSummary([b1, b2], { model, signal: new AbortController().signal, customInstructions: "the edits" });
    expect(llm.calls).toHaveLength(1);
    expect(llm.prompt()).toContain("[User]: try b");
    expect(llm.prompt()).toContain("Also focus on: the edits");
    expect(result.summary).toContain("## Goal\nTry b");
    expect(result.summary).toContain("<read-files>\nsrc/b.ts\n</read-files>");
    expect(result.summary).toContain("<modified-files>\nsrc/a.ts\n</modified-files>");
    expect(result).toMatchObject({ readFiles: ["src/b.ts"], modifiedFiles: ["src/a.ts"], usage: { totalTokens: 15 } });
  });

  it("generateBranchSummary answers errors and aborts instead of throwing", async () => {
    const { b1 } = tree();
    const failing = summaryFunctions(recorder({ ...reply(""), stopReason: "error", errorMessage: "boom" }).complete);
    expect(await failing.generateBranchSummary([b1], { model, signal: new AbortController().signal })).toEqual({ error: "Branch summarization failed: boom" });
    const aborted = summaryFunctions(recorder(reply("", "aborted")).complete);
    expect(await aborted.generateBranchSummary([b1], { model, signal: new AbortController().signal })).toEqual({ aborted: true });
    expect(await failing.generateBranchSummary([], { model, signal: new AbortController().signal })).toEqual({ summary: "No content to summarize" });
  });
});

describe("conversation summaries and compact", () => {
  it("generateSummaryWithUsage sends the conversation and the previous summary, and returns text and usage", async () => {
    const llm = recorder(reply("S1"));
    const { generateSummaryWithUsage, generateSummary } = summaryFunctions(llm.complete);
    const messages = [user("hello").message, assistant("hi").message];
    expect(await generateSummaryWithUsage(messages, model, undefined, undefined, undefined, undefined, undefined, "OLD")).toMatchObject({ text: "S1", usage: { totalTokens: 15 } });
    expect(llm.prompt()).toContain("<previous-summary>\nOLD\n</previous-summary>");
    expect(llm.prompt()).toContain("[Assistant]: hi");
    expect(llm.calls[0]!.systemPrompt).toMatch(/summaries of conversations/);
    expect(await generateSummary(messages, model)).toBe("S1");
    await expect(summaryFunctions(recorder(reply("cut", "length")).complete).generateSummary(messages, model)).rejects.toThrow(/output limit/);
  });

  it("compact summarises the preparation, with a split turn's prefix and the file lists", async () => {
    const llm = recorder((context) => reply((context.messages[0]!.content as { text: string }[])[0]!.text.includes("first part of a turn") ? "PREFIX" : "HISTORY"));
    const { compact } = summaryFunctions(llm.complete);
    const preparation = {
      firstKeptEntryId: "k1",
      messagesToSummarize: [user("old").message],
      turnPrefixMessages: [user("long turn").message],
      isSplitTurn: true,
      tokensBefore: 1234,
      fileOps: { read: new Set(["a"]), written: new Set(["b"]), edited: new Set<string>() },
    };
    const result = await compact(preparation, model, undefined);
    expect(llm.calls).toHaveLength(2);
    expect(result.summary).toBe("HISTORY\n\n---\n\n**Turn Context (split turn):**\n\nPREFIX\n\n<read-files>\na\n</read-files>\n\n<modified-files>\nb\n</modified-files>");
    expect(result).toMatchObject({ firstKeptEntryId: "k1", tokensBefore: 1234, details: { readFiles: ["a"], modifiedFiles: ["b"] }, usage: { totalTokens: 30 } });
  });
});

describe("stores", () => {
  const dirs: string[] = [];
  const temp = () => {
    const dir = mkdtempSync(join(tmpdir(), "atomic-stores-"));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("readStoredCredential reads auth.json now, and is undefined without an entry or a file", () => {
    const agentDir = temp();
    expect(readStoredCredentialFrom(agentDir, "fake")).toBeUndefined();
    writeFileSync(join(agentDir, "auth.json"), JSON.stringify({ fake: { type: "api_key", key: "k1" } }));
    expect(readStoredCredentialFrom(agentDir, "fake")).toEqual({ type: "api_key", key: "k1" });
    expect(readStoredCredentialFrom(agentDir, "other")).toBeUndefined();
    writeFileSync(join(agentDir, "other.json"), "{broken");
    expect(readStoredCredentialFrom(agentDir, "fake", join(agentDir, "other.json"))).toBeUndefined();
  });

  it("hasTrustRequiringProjectResources sees the project's .atomic resources", () => {
    const project = temp();
    expect(hasTrustRequiringProjectResources(project)).toBe(false);
    mkdirSync(join(project, ".atomic"));
    writeFileSync(join(project, ".atomic", "notes.txt"), "");
    expect(hasTrustRequiringProjectResources(project)).toBe(false);
    mkdirSync(join(project, ".atomic", "extensions"));
    expect(hasTrustRequiringProjectResources(project)).toBe(true);
    const child = join(temp(), "a", "b");
    mkdirSync(child, { recursive: true });
    mkdirSync(join(child, "..", ".atomic", "skills"), { recursive: true });
    expect(hasTrustRequiringProjectResources(child)).toBe(true);
  });

  it("CredentialSynchronizationError keeps what failed", () => {
    const error = new CredentialSynchronizationError("fake", "login", undefined, { cause: new Error("x") });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: "CredentialSynchronizationError",
      providerId: "fake",
      operation: "login",
      message: "Credential login committed for fake, but local synchronization failed",
    });
  });
});
