import { describe, expect, it } from "vitest";
import type { SessionEntry, SessionHeader, SessionStorage, SessionStore } from "./api.js";
import { user } from "./fixtures.test-support.js";
import { currentSessionHandle } from "./handle.js";
import { SessionManager } from "./manager.js";

/** Records what reaches storage and how often it was released. */
class RecordingStorage implements SessionStorage {
  readonly written: SessionEntry[] = [];
  closes = 0;
  constructor(readonly file: string | undefined) {}
  append(entries: readonly SessionEntry[]) {
    this.written.push(...entries);
  }
  async flush() {}
  async close() {
    this.closes++;
  }
}

function store(): SessionStore & { created: RecordingStorage[] } {
  const created: RecordingStorage[] = [];
  return {
    created,
    persistent: true,
    sessionDir: () => "/sessions",
    create(header: SessionHeader) {
      const storage = new RecordingStorage(`/sessions/${header.id}.jsonl`);
      created.push(storage);
      return storage;
    },
    load: async () => {
      throw new Error("not used");
    },
    importCopy: async (source) => source,
    checkWritable: async () => undefined,
    onWriteStatus: () => () => undefined,
  };
}

const bashResult = (command: string) => ({
  role: "bashExecution" as const,
  command,
  output: "",
  exitCode: 0,
  cancelled: false,
  truncated: false,
  fullOutputPath: null,
  timestamp: 1,
});

describe("currentSessionHandle", () => {
  it("appends to the current session while it is current", async () => {
    const sessions = store();
    const manager = new SessionManager({ cwd: "/w", store: sessions });
    const before = manager.append({ type: "message", message: user("u1") });
    const handle = currentSessionHandle(manager);
    expect(handle).toMatchObject({ id: manager.current.header.id, file: sessions.created[0]!.file });
    expect(handle.isCurrent()).toBe(true);
    await handle.appendMessage(bashResult("ls"));
    const entry = manager.current.tree.get(manager.current.tree.leafId!)!;
    expect(entry).toMatchObject({ type: "message", parentId: before.id, message: { command: "ls" } });
    expect(sessions.created[0]!.written.at(-1)).toBe(entry);
  });

  it("after a replacement, appends to the replaced session only and releases its file again", async () => {
    const sessions = store();
    const manager = new SessionManager({ cwd: "/w", store: sessions });
    const old = manager.current;
    const leaf = manager.append({ type: "message", message: user("u1") });
    const handle = currentSessionHandle(manager);
    await manager.activate(manager.newSession());
    const [oldStorage, newStorage] = sessions.created as [RecordingStorage, RecordingStorage];
    const closesAfterSwitch = oldStorage.closes;
    expect(handle.isCurrent()).toBe(false);

    await handle.appendMessage(bashResult("make"));
    expect(oldStorage.written.at(-1)).toMatchObject({ type: "message", parentId: leaf.id, message: { command: "make" } });
    expect(old.tree.leafId).toBe(oldStorage.written.at(-1)!.id);
    expect(oldStorage.closes).toBe(closesAfterSwitch + 1);
    expect(newStorage.written).toEqual([]);
    expect(manager.current.tree.size).toBe(0);
  });

  it("counts the same file reopened as the same session", async () => {
    const sessions = store();
    const manager = new SessionManager({ cwd: "/w", store: sessions });
    const handle = currentSessionHandle(manager);
    const file = handle.file!;
    // Reopening the file (switch_session to it) builds a new Session object with the same file.
    const reopened = manager.newSession();
    (reopened as { storage: SessionStorage }).storage = new RecordingStorage(file);
    await manager.activate(reopened);
    expect(handle.isCurrent()).toBe(true);
    await handle.appendMessage(bashResult("pwd"));
    expect(manager.current.tree.size).toBe(1);
  });

  it("in-memory sessions are never confused with each other", async () => {
    const manager = new SessionManager({ cwd: "/w" });
    const handle = currentSessionHandle(manager);
    expect(handle.file).toBeUndefined();
    await manager.activate(manager.newSession());
    expect(handle.isCurrent()).toBe(false);
    await handle.appendMessage(bashResult("echo"));
    expect(manager.current.tree.size).toBe(0);
  });
});
