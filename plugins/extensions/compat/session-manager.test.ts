/** pi's SessionManager for extensions: a session file written once it holds a conversation, its tree, branches, forks. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/helpers/temp.js";
import { SessionManager } from "./session-manager.js";

const user = (text: string) => ({ role: "user", content: text, timestamp: 1 });
const assistant = (text: string) => ({ role: "assistant", content: [{ type: "text", text }], timestamp: 2 });

describe("SessionManager (extensions' compat)", () => {
  it("should write the file once a conversation exists, then append; tree, labels, branch copies and forks follow pi", () => {
    const dir = tempDir("compat-sessions-");
    const manager = SessionManager.create("/work", dir, { id: "s-1" });
    const file = manager.getSessionFile()!;
    manager.appendModelChange("p", "m");
    expect(existsSync(file)).toBe(false);
    const u1 = manager.appendMessage(user("one"));
    const a1 = manager.appendMessage(assistant("answer one"));
    expect(readFileSync(file, "utf8").trim().split("\n")).toHaveLength(4);
    manager.appendLabelChange(u1, "start");
    manager.branch(u1);
    const a2 = manager.appendMessage(assistant("other answer"));

    const [root] = manager.getTree();
    expect(root!.entry.type).toBe("model_change");
    const first = root!.children[0]!;
    expect(first).toMatchObject({ entry: { id: u1 }, label: "start" });
    expect(first.children.map((node) => node.entry.id)).toEqual([a1, a2]);
    expect(() => manager.appendContextEdit(a1, { content: "x" })).toThrow(`Entry ${a1} is not on the active branch`);
    expect(() => SessionManager.create("/work", dir, { id: "bad id" })).toThrow(/Session id must be non-empty/);

    const branched = manager.createBranchedSession(a2)!;
    expect(branched).not.toBe(file);
    const copied = manager.getEntries();
    expect(copied.map((entry) => entry.type)).toEqual(["model_change", "message", "message", "label"]);
    expect(copied[1]!.parentId).toBe(copied[0]!.id);
    expect(copied[3]).toMatchObject({ targetId: u1, label: "start", parentId: a2 });
    expect(manager.getHeader()).toMatchObject({ parentSession: file });

    expect(SessionManager.findById("/work", "s-1", dir)).toBe(file);
    const forked = SessionManager.forkFrom(file, "/work", join(dir, "forks"), { id: "s-2" });
    expect(forked.getHeader()).toMatchObject({ id: "s-2", parentSession: file });
    expect(forked.getEntries().map((entry) => entry.id)).toEqual(
      SessionManager.open(file)
        .getEntries()
        .map((entry) => entry.id),
    );
  });

  it("a per-agent subclass's static constructors make its own instances, in its agent dir's default folder", () => {
    const agentDir = tempDir("compat-agent-dir-");
    const cwd = tempDir("compat-cwd-");
    const AgentSessionManager = class extends SessionManager {};
    AgentSessionManager.agentDir = agentDir;
    const created = AgentSessionManager.create(cwd);
    expect(created).toBeInstanceOf(AgentSessionManager);
    expect(created.getSessionDir().startsWith(agentDir)).toBe(true);
    expect(created.usesDefaultSessionDir()).toBe(true);
    expect(AgentSessionManager.inMemory(cwd)).toBeInstanceOf(AgentSessionManager);
  });
});
