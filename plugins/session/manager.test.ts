import { describe, expect, it } from "vitest";
import type { SessionEntry, SessionHeader, SessionStorage, SessionStore } from "./api.js";
import { SessionManager } from "./manager.js";
import { assistant, user } from "./fixtures.test-support.js";

/** Records what reaches storage; `file` makes the manager treat sessions as persisted. */
class RecordingStorage implements SessionStorage {
  readonly written: SessionEntry[] = [];
  closed = false;
  constructor(readonly file: string) {}
  append(entries: readonly SessionEntry[]) {
    this.written.push(...entries);
  }
  async flush() {}
  async close() {
    this.closed = true;
  }
}

function recordingStore(): SessionStore & { created: RecordingStorage[] } {
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

function seeded(store?: SessionStore) {
  const manager = new SessionManager({ cwd: "/work", ...(store ? { store } : {}) });
  const u1 = manager.append({ type: "message", message: user("u1") });
  const a1 = manager.append({ type: "message", message: assistant("a1") });
  const u2 = manager.append({ type: "message", message: user("u2") });
  const a2 = manager.append({ type: "message", message: assistant("a2") });
  return { manager, ids: [u1.id, a1.id, u2.id, a2.id] };
}

describe("SessionManager", () => {
  it("should keep sessions in memory without a store", () => {
    const { manager } = seeded();
    expect(manager.persistent).toBe(false);
    expect(manager.current.storage.file).toBeUndefined();
    expect(manager.current.header).toMatchObject({ type: "session", version: 1, cwd: "/work" });
    expect(manager.current.header.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("should fork: the new session holds the path up to the entry's parent, same ids", async () => {
    const store = recordingStore();
    const { manager, ids } = seeded(store);
    const oldFile = manager.current.storage.file;
    const fork = manager.forkFrom(ids[2]!);
    expect(fork.header.parentSession).toBe(oldFile);
    expect(fork.tree.entries().map((e) => e.id)).toEqual(ids.slice(0, 2));
    expect(fork.tree.leafId).toBe(ids[1]);
    await manager.activate(fork);
    expect(manager.current).toBe(fork);
    expect(store.created[0]!.closed).toBe(true);
    expect(store.created.at(-1)!.written.map((e) => e.id)).toEqual(ids.slice(0, 2));
  });

  it("should fork at the first message into an empty session", () => {
    const { manager, ids } = seeded(recordingStore());
    const fork = manager.forkFrom(ids[0]!);
    expect(fork.tree.size).toBe(0);
    expect(fork.unsaved).toBe(false);
    expect(fork.header.parentSession).toBeDefined();
  });

  it("should clone the root -> leaf path only", () => {
    const { manager, ids } = seeded();
    manager.current.tree.moveLeaf(ids[1]!);
    const abandoned = manager.append({ type: "message", message: user("other") });
    const clone = manager.clone();
    expect(clone.tree.entries().map((e) => e.id)).toEqual([ids[0], ids[1], abandoned.id]);
    expect(clone.header.parentSession).toBeUndefined(); // in memory: no parent file
  });

  it("should send appends to the current storage", async () => {
    const store = recordingStore();
    const manager = new SessionManager({ cwd: "/w", store });
    const entry = manager.append({ type: "session_info", name: "x" });
    expect(store.created[0]!.written).toEqual([entry]);
    const next = manager.newSession({ parentSession: "/p.jsonl" });
    await manager.activate(next);
    manager.append({ type: "session_info", name: "y" });
    expect(store.created[0]!.written).toHaveLength(1);
    expect(store.created[1]!.written).toHaveLength(1);
    expect(next.header.parentSession).toBe("/p.jsonl");
  });
});
