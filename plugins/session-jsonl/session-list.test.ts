import { mkdir, mkdtemp, rm, stat, utimes, writeFile, appendFile, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveSessionDir } from "./paths.js";
import { FIRST_MESSAGE_MAX_CHARS, scanSessionInfo } from "./session-info.js";
import { isSessionFile, readSessionInfo } from "./session-info-file.js";
import { SessionLister } from "./session-list.js";

let dir: string;
const MTIME = new Date("2026-01-01T00:00:00.000Z");

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "atomic-list-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const header = (id: string, extra: Record<string, unknown> = {}) => ({ type: "session", version: 1, id, timestamp: "2026-11-01T10:00:00.000Z", cwd: "/proj", ...extra });
const message = (id: string, role: string, content: unknown, timestamp: string) => ({ type: "message", message: { role, content }, id, parentId: null, timestamp });
const lines = (...records: unknown[]) => records.map((r) => JSON.stringify(r)).join("\n") + "\n";

describe("session info scan", () => {
  it("reads pi's SessionInfo fields: name from the newest session_info, first user text, last activity", () => {
    const text = lines(
      header("s1", { parentSession: "/old.jsonl" }),
      { type: "session_info", name: "  First  ", id: "i1", parentId: null, timestamp: "t" },
      message(
        "m1",
        "user",
        [
          { type: "image", data: "x", mimeType: "image/png" },
          { type: "text", text: "Fix" },
          { type: "text", text: "the bug" },
        ],
        "2026-11-01T10:01:00.000Z",
      ),
      message("m2", "assistant", [{ type: "text", text: "Done" }], "2026-11-01T10:02:00.000Z"),
      { type: "session_info", name: "Renamed", id: "i2", parentId: "m2", timestamp: "t" },
      message("m3", "toolResult", [{ type: "text", text: "out" }], "2026-11-01T10:09:00.000Z"),
    );
    expect(scanSessionInfo(Buffer.from(text), "/p/s1.jsonl", MTIME)).toEqual({
      path: "/p/s1.jsonl",
      id: "s1",
      cwd: "/proj",
      name: "Renamed",
      parentSessionPath: "/old.jsonl",
      created: "2026-11-01T10:00:00.000Z",
      modified: "2026-11-01T10:02:00.000Z",
      messageCount: 3,
      firstMessage: "Fix the bug",
    });
  });

  it("falls back to the header time, then the file time; no messages reads (no messages)", () => {
    expect(scanSessionInfo(Buffer.from(lines(header("s2"))), "/p", MTIME)).toMatchObject({ modified: "2026-11-01T10:00:00.000Z", messageCount: 0, firstMessage: "(no messages)" });
    expect(scanSessionInfo(Buffer.from(lines(header("s3", { timestamp: "garbage" }))), "/p", MTIME)).toMatchObject({ created: MTIME.toISOString(), modified: MTIME.toISOString() });
  });

  it("counts a torn last line only when it is whole JSON; keys in another order are parsed; an empty name clears", () => {
    const base = lines(header("s4"), message("m1", "user", "hi", "2026-11-01T10:01:00.000Z"), {
      id: "x",
      type: "message",
      message: { role: "assistant", content: [] },
      timestamp: "2026-11-01T10:03:00.000Z",
    });
    expect(scanSessionInfo(Buffer.from(base + '{"type":"message","message":{"ro'), "/p", MTIME)).toMatchObject({
      messageCount: 2,
      firstMessage: "hi",
      modified: "2026-11-01T10:03:00.000Z",
    });
    const named = base + lines({ type: "session_info", name: "A", id: "i" }, { type: "session_info", name: " ", id: "j" });
    expect(scanSessionInfo(Buffer.from(named), "/p", MTIME)?.name).toBeUndefined();
  });

  it("is not a session without a header first; a long first message is cut", () => {
    expect(scanSessionInfo(Buffer.from(lines(message("m", "user", "x", "t"))), "/p", MTIME)).toBeUndefined();
    expect(scanSessionInfo(Buffer.from("not json\n"), "/p", MTIME)).toBeUndefined();
    expect(scanSessionInfo(Buffer.alloc(0), "/p", MTIME)).toBeUndefined();
    const long = scanSessionInfo(Buffer.from(lines(header("s5"), message("m", "user", "y".repeat(10_000), "t"))), "/p", MTIME)!;
    expect(long.firstMessage).toHaveLength(FIRST_MESSAGE_MAX_CHARS + 1);
  });
});

describe("session info read from a file in blocks", () => {
  const long = "z".repeat(5000);
  const fixtures: Record<string, string> = {
    named: lines(
      header("f1", { parentSession: "/old.jsonl" }),
      { type: "session_info", name: "First", id: "i1", parentId: null, timestamp: "t" },
      message("m0", "assistant", [{ type: "text", text: long }], "2026-11-01T10:00:30.000Z"),
      message("m1", "user", [{ type: "text", text: `Fix ${long}` }], "2026-11-01T10:01:00.000Z"),
      message("m2", "assistant", [{ type: "text", text: long }], "2026-11-01T10:02:00.000Z"),
      { type: "custom", customType: "x", data: long, id: "c", parentId: "m2", timestamp: "t" },
      { id: "u", type: "session_info", name: "Renamed", timestamp: "t" },
      message("m3", "toolResult", [{ type: "text", text: long }], "2026-11-01T10:09:00.000Z"),
    ),
    torn:
      lines(header("f2"), message("m1", "user", "hi", "2026-11-01T10:01:00.000Z"), message("m2", "assistant", [{ type: "text", text: long }], "2026-11-01T10:03:00.000Z")) +
      JSON.stringify(message("m3", "assistant", [{ type: "text", text: long }], "2026-11-01T10:04:00.000Z")),
    tornPart: lines(header("f3"), message("m1", "user", "hi", "2026-11-01T10:01:00.000Z")) + `{"type":"message","message":{"role":"assistant","content":"${long}`,
    blankAndCrlf: `\n  \n${JSON.stringify(header("f4"))}\r\n\r\n${JSON.stringify(message("m1", "user", "crlf", "2026-11-01T10:01:00.000Z"))}\r\n`,
    noSession: lines(message("m", "user", long, "t")),
    empty: "",
  };

  it("gives what the in-memory scan gives, whatever the block size (lines spanning blocks, torn last lines)", async () => {
    for (const [name, text] of Object.entries(fixtures)) {
      const file = join(dir, `${name}.jsonl`);
      await writeFile(file, text);
      const stats = await stat(file);
      const expected = scanSessionInfo(Buffer.from(text), file, stats.mtime);
      for (const blockBytes of [5, 13, 64, 65, 4096, 1 << 20]) {
        expect(await readSessionInfo(file, stats, { blockBytes }), `${name} in blocks of ${blockBytes}`).toEqual(expected);
      }
    }
    expect(scanSessionInfo(Buffer.from(fixtures.named!), "/f", MTIME)).toMatchObject({
      name: "Renamed",
      messageCount: 4,
      modified: "2026-11-01T10:02:00.000Z",
      firstMessage: `Fix ${long}`.slice(0, FIRST_MESSAGE_MAX_CHARS) + "…",
    });
    expect(scanSessionInfo(Buffer.from(fixtures.torn!), "/f", MTIME)).toMatchObject({ messageCount: 3, modified: "2026-11-01T10:04:00.000Z" });
    expect(scanSessionInfo(Buffer.from(fixtures.tornPart!), "/f", MTIME)).toMatchObject({ messageCount: 1 });
    expect(scanSessionInfo(Buffer.from(fixtures.blankAndCrlf!), "/f", MTIME)).toMatchObject({ id: "f4", firstMessage: "crlf" });
  });

  it("a first line too long for a header is no session; isSessionFile reads only the first line", async () => {
    const huge = join(dir, "huge.jsonl");
    await writeFile(huge, "x".repeat(3 * 1024 * 1024));
    expect(await readSessionInfo(huge, await stat(huge))).toBeUndefined();
    expect(await isSessionFile(huge)).toBe(false);
    const session = join(dir, "s.jsonl");
    // Everything after the header is garbage: only the first line decides.
    await writeFile(session, lines(header("s")) + "garbage\n".repeat(10));
    expect(await isSessionFile(session)).toBe(true);
    expect(await isSessionFile(join(dir, "missing.jsonl"))).toBe(false);
    expect(await isSessionFile(dir)).toBe(false);
  });
});

describe("session lister", () => {
  it("lists newest first, skips non-sessions, and rescans only files whose size or mtime changed", async () => {
    const folder = resolveSessionDir({ agentDir: dir, cwd: "/proj" });
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, "a.jsonl"), lines(header("a"), message("m", "user", "old", "2026-11-01T10:00:00.000Z")));
    await writeFile(join(folder, "b.jsonl"), lines(header("b"), message("m", "user", "new", "2026-11-02T10:00:00.000Z")));
    await writeFile(join(folder, "notes.jsonl"), "not a session\n");
    await writeFile(join(folder, "c.txt"), lines(header("c")));
    const lister = new SessionLister();
    expect((await lister.list([folder])).map((s) => s.id)).toEqual(["b", "a"]);

    // Same size and mtime: the cached facts stand (proof that no rescan happened).
    const a = join(folder, "a.jsonl");
    const same = lines(header("a"), message("m", "user", "OLD", "2026-11-01T10:00:00.000Z"));
    await writeFile(a, same);
    await utimes(a, MTIME, MTIME);
    const before = await lister.list([folder]);
    expect(before.find((s) => s.id === "a")?.firstMessage).toBe("OLD");
    await writeFile(a, same.replace("OLD", "old"));
    await utimes(a, MTIME, MTIME);
    expect((await lister.list([folder])).find((s) => s.id === "a")).toEqual(before.find((s) => s.id === "a"));

    // Appended: rescanned, and now the newest.
    await appendFile(a, lines(message("m2", "assistant", [{ type: "text", text: "x" }], "2026-11-03T10:00:00.000Z")));
    const after = await lister.list([folder]);
    expect(after.map((s) => [s.id, s.messageCount])).toEqual([
      ["a", 2],
      ["b", 1],
    ]);
    await unlink(join(folder, "b.jsonl"));
    expect((await lister.list([folder])).map((s) => s.id)).toEqual(["a"]);
  });

  it("lists every session folder under a root; missing folders list nothing", async () => {
    for (const [cwd, id] of [
      ["/one", "x"],
      ["/two", "y"],
    ] as const) {
      const folder = resolveSessionDir({ agentDir: dir, cwd });
      await mkdir(folder, { recursive: true });
      await writeFile(join(folder, `${id}.jsonl`), lines(header(id, { cwd })));
    }
    const lister = new SessionLister();
    const folders = await lister.folders(join(dir, "sessions"));
    expect((await lister.list(folders)).map((s) => s.cwd).sort()).toEqual(["/one", "/two"]);
    expect(await lister.list([join(dir, "nope")])).toEqual([]);
  });

  it("latest: the most recently written session file (mtime), skipping a newer file that is no session", async () => {
    const folder = join(dir, "s");
    await mkdir(folder);
    const at = (minutes: number) => new Date(Date.UTC(2026, 10, 1, 12, minutes));
    for (const [name, id, minutes] of [
      ["old.jsonl", "old", 1],
      ["new.jsonl", "new", 5],
      ["mid.jsonl", "mid", 3],
    ] as const) {
      await writeFile(join(folder, name), lines(header(id)));
      await utimes(join(folder, name), at(minutes), at(minutes));
    }
    await writeFile(join(folder, "junk.jsonl"), "junk\n");
    await utimes(join(folder, "junk.jsonl"), at(9), at(9));
    const lister = new SessionLister();
    expect(await lister.latest(folder)).toBe(join(folder, "new.jsonl"));
    await utimes(join(folder, "old.jsonl"), at(7), at(7));
    expect(await lister.latest(folder)).toBe(join(folder, "old.jsonl"));
    expect(await lister.latest(join(dir, "none"))).toBeUndefined();
  });
});
