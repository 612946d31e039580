import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createHarness, disposeHarnesses, OTHER } from "./harness.test-support.js";
import { assistant, toolResult, user } from "./fixtures.test-support.js";

afterEach(disposeHarnesses);

describe("session plugin: startup and recording", () => {
  it("should start a session, named from --name, and show it in get_state", async () => {
    const h = await createHarness({ name: " work " });
    const state = h.state();
    expect(state).toMatchObject({ sessionName: "work" });
    expect(state.sessionId).toBe(h.agent.sessionId);
    expect(String(state.sessionFile)).toContain(join(h.dir, "agent", "sessions"));
    expect(h.log).toEqual(["session_start startup"]);
  });

  it("should omit sessionFile with --no-session and sessionName when unnamed", async () => {
    const h = await createHarness({ noSession: true });
    expect(Object.keys(h.state())).toEqual(["sessionId"]);
  });

  it("should record messages, model and thinking changes, but not restores", async () => {
    const h = await createHarness();
    await h.agent.emit(user("hi"));
    await h.agent.emit(assistant("hello"));
    await h.agent.api().setModel(OTHER, "set");
    await h.agent.api().setModel(OTHER, "restore");
    await h.agent.api().setThinkingLevel("high");
    const { entries, leafId } = await h.invoke("get_entries");
    expect(entries.map((e: any) => e.type)).toEqual(["message", "message", "model_change", "thinking_level_change"]);
    expect(entries[2]).toMatchObject({ provider: "test", modelId: "m2" });
    expect(leafId).toBe(entries[3].id);
    // The prompt reached the file before any reply could crash us.
    const file = String(h.state().sessionFile);
    await h.kernel.services.get("session").flush();
    expect((await readFile(file, "utf8")).trim().split("\n")).toHaveLength(5);
  });
});

describe("session plugin: agent_settled", () => {
  it("waits until the session file holds every entry, so a client may read it on agent_settled", async () => {
    const h = await createHarness();
    const file = String(h.state().sessionFile);
    const seen: number[] = [];
    h.kernel.hook("agent_settled").tapPromise({ name: "reader", stage: 1000 }, async () => {
      seen.push((await readFile(file, "utf8")).trim().split("\n").length);
    });
    for (let i = 0; i < 20; i++) {
      await h.agent.emit(user(`question ${i}`));
      await h.agent.emit(assistant(`answer ${i}`.repeat(2000)));
    }
    await h.kernel.hook("agent_settled").promise({ aborted: false });
    // The header and 40 messages.
    expect(seen).toEqual([41]);
  });
});

describe("session plugin: queries", () => {
  it("should page entries with since and reject an unknown cursor", async () => {
    const h = await createHarness();
    expect(await h.invoke("get_entries")).toEqual({ entries: [], leafId: null });
    await h.agent.emit(user("a"));
    await h.agent.emit(assistant("b"));
    const all = (await h.invoke("get_entries")).entries;
    expect((await h.invoke("get_entries", { since: all[0].id })).entries).toEqual([all[1]]);
    await expect(h.invoke("get_entries", { since: "nope" })).rejects.toThrow("Entry not found: nope");
  });

  it("should name the session, refusing blank names", async () => {
    const h = await createHarness();
    await expect(h.invoke("set_session_name", { name: "   " })).rejects.toThrow("Session name cannot be empty");
    expect(await h.invoke("set_session_name", { name: " feature " })).toBeUndefined();
    expect(h.state().sessionName).toBe("feature");
    expect(h.log).toContain("session_info_changed feature");
  });

  it("should report stats with context usage from the current model", async () => {
    const h = await createHarness({ noSession: true });
    await h.agent.emit(user("run it"));
    await h.agent.emit(assistant("ok", { content: [{ type: "toolCall", id: "c1", name: "bash", arguments: {} }] }));
    await h.agent.emit(toolResult("c1", "x".repeat(40)));
    const stats = await h.invoke("get_session_stats");
    expect(stats.sessionFile).toBeUndefined();
    expect(stats).toMatchObject({ userMessages: 1, assistantMessages: 1, toolCalls: 1, toolResults: 1, totalMessages: 3, cost: 0.01 });
    expect(stats.tokens.total).toBe(18);
    expect(stats.contextUsage).toEqual({ tokens: 28, contextWindow: 1000, percent: 2.8 });
    h.agent.model = null;
    expect((await h.invoke("get_session_stats")).contextUsage).toBeUndefined();
  });

  it("should list fork messages and the tree", async () => {
    const h = await createHarness();
    await h.agent.emit(user("first"));
    await h.agent.emit(assistant("a"));
    const { messages } = await h.invoke("get_fork_messages");
    expect(messages).toHaveLength(1);
    expect(messages[0].text).toBe("first");
    const { tree, leafId } = await h.invoke("get_tree");
    expect(tree).toHaveLength(1);
    expect(tree[0].entry.id).toBe(messages[0].entryId);
    expect(tree[0].children[0].entry.id).toBe(leafId);
  });
});

describe("session plugin: replacing the session", () => {
  it("should cancel new_session when a guard says so, changing nothing", async () => {
    const h = await createHarness();
    const before = h.state().sessionId;
    h.kernel.hook("session_before_switch").tapPromise("guard", async () => ({ cancel: true }));
    expect(await h.invoke("new_session")).toEqual({ cancelled: true });
    expect(h.state().sessionId).toBe(before);
    expect(h.log).toEqual(["session_start startup"]);
  });

  it("should abort a streaming run before replacing, keeping its message in the old session", async () => {
    const h = await createHarness();
    await h.agent.emit(user("long task"));
    const oldFile = String(h.state().sessionFile);
    h.agent.streaming = true;
    expect(await h.invoke("new_session", { parentSession: oldFile })).toEqual({ cancelled: false });
    expect(h.log.slice(1)).toEqual(["aborted", "session_shutdown new", "replaceMessages 0", "session_start new"]);
    expect(h.state().sessionFile).not.toBe(oldFile);
    const lines = (await readFile(oldFile, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.at(-1).message.stopReason).toBe("aborted");
    expect((await h.invoke("get_entries")).entries).toEqual([]);
  });

  it("should fork before a user message and return its text, also when cancelled", async () => {
    const h = await createHarness();
    await h.agent.emit(user("u1"));
    await h.agent.emit(assistant("a1"));
    await h.agent.emit(user("u2"));
    const entries = (await h.invoke("get_entries")).entries;
    await expect(h.invoke("fork", { entryId: entries[1].id })).rejects.toThrow("Invalid entry ID for forking");
    await expect(h.invoke("fork", { entryId: "zzzzzzzz" })).rejects.toThrow("Invalid entry ID for forking");

    const oldFile = h.state().sessionFile;
    expect(await h.invoke("fork", { entryId: entries[2].id })).toEqual({ text: "u2", cancelled: false });
    expect(h.agent.messages.map((m: any) => m.role)).toEqual(["user", "assistant"]);
    expect((await h.invoke("get_entries")).entries.map((e: any) => e.id)).toEqual([entries[0].id, entries[1].id]);
    expect(h.log.slice(-3)).toEqual(["session_shutdown fork", "replaceMessages 2", "session_start fork"]);
    const newHeader = JSON.parse((await readFile(String(h.state().sessionFile), "utf8")).split("\n")[0]!);
    expect(newHeader.parentSession).toBe(oldFile);

    h.kernel.hook("session_before_fork").tapPromise("guard", async () => ({ cancel: true }));
    expect(await h.invoke("fork", { entryId: entries[0].id })).toEqual({ text: "u1", cancelled: true });
  });

  it("should clone the active branch, refusing a session without messages", async () => {
    const h = await createHarness({ name: "named only" });
    await expect(h.invoke("clone")).rejects.toThrow("Cannot clone session: no current entry selected");
    await h.agent.emit(user("u1"));
    const before = (await h.invoke("get_entries")).entries;
    expect(await h.invoke("clone")).toEqual({ cancelled: false });
    expect((await h.invoke("get_entries")).entries).toEqual(before);
    expect(h.agent.messages).toHaveLength(1);
  });

  it("should switch back to a session file, restoring messages, model and thinking level", async () => {
    const h = await createHarness();
    await h.agent.api().setModel(OTHER, "set");
    await h.agent.api().setThinkingLevel("high");
    await h.agent.emit(user("remember me"));
    await h.agent.emit(assistant("ok", { model: "m2" }));
    const file = String(h.state().sessionFile);
    await h.invoke("new_session");
    await h.agent.api().setModel({ ...OTHER, id: "m1" }, "set");
    await h.agent.api().setThinkingLevel("low");
    expect(h.agent.messages).toEqual([]);

    expect(await h.invoke("switch_session", { sessionPath: file })).toEqual({ cancelled: false });
    expect(h.state().sessionFile).toBe(file);
    expect(h.agent.messages.map((m: any) => m.role)).toEqual(["user", "assistant"]);
    expect(h.agent.model?.id).toBe("m2");
    expect(h.agent.thinking).toBe("high");
    expect(h.log).toContain("setModel m2 restore");
    // Restoring wrote nothing into the session it restored from.
    expect((await h.invoke("get_entries")).entries).toHaveLength(4);
    expect(h.log.slice(-4)).toEqual(["session_shutdown resume", "replaceMessages 2", "setModel m2 restore", "session_start resume"]);
  });

  it("should import a session file as a copy in the session dir", async () => {
    const h = await createHarness();
    await expect(h.invoke("import_session", { inputPath: "nope.jsonl" })).rejects.toThrow(`File not found: ${join(h.dir, "nope.jsonl")}`);
    const bogus = join(h.dir, "bogus.jsonl");
    await writeFile(bogus, "not json\n");
    await expect(h.invoke("import_session", { inputPath: bogus })).rejects.toThrow(`Not a valid session file: ${bogus}`);

    await h.agent.emit(user("exported"));
    const source = String(h.state().sessionFile);
    await h.kernel.services.get("session").flush();
    await h.invoke("new_session");
    expect(await h.invoke("import_session", { inputPath: source })).toEqual({ cancelled: false });
    const imported = String(h.state().sessionFile);
    expect(imported).not.toBe(source);
    expect(existsSync(imported)).toBe(true);
    expect(h.agent.messages).toHaveLength(1);
  });

  it("should read files but keep appends in memory with --no-session", async () => {
    const writer = await createHarness();
    await writer.agent.emit(user("on disk"));
    const file = String(writer.state().sessionFile);
    await writer.kernel.services.get("session").flush();

    const h = await createHarness({ noSession: true });
    await h.invoke("switch_session", { sessionPath: file });
    expect(h.agent.messages).toHaveLength(1);
    expect(h.state().sessionFile).toBeUndefined();
    await h.agent.emit(assistant("not written"));
    expect((await readFile(file, "utf8")).trim().split("\n")).toHaveLength(2);
  });
});
