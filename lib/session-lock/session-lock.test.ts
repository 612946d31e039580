import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ErrorCode } from "../../kernel/index.js";
import { lockSessionFile, newLockHolder, refreshHeldRecords, type SessionInUseError } from "./index.js";
import { ownIdentity } from "./process-identity.js";
import { recordPath, type LockRecord } from "./record.js";

let dir: string;
let file: string;
const children: ChildProcess[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "atomic-lock-"));
  file = join(dir, "s.jsonl");
});
afterEach(async () => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  await rm(dir, { recursive: true, force: true });
});

/** A process that stays alive until killed, and its exit. */
function sleeper(): { child: ChildProcess; exited: Promise<void> } {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  children.push(child);
  return { child, exited: new Promise((resolve) => child.once("exit", () => resolve())) };
}

async function procStartTime(pid: number): Promise<string | null> {
  try {
    const text = await readFile(`/proc/${pid}/stat`, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

function writeRecord(path: string, record: LockRecord): void {
  writeFileSync(path, JSON.stringify(record));
}

async function recordFor(pid: number, extra: Partial<LockRecord> = {}): Promise<LockRecord> {
  const self = await ownIdentity();
  return { pid, startTime: await procStartTime(pid), machine: self.machine, token: "theirs", since: "2026-01-01T00:00:00.000Z", file, ...extra };
}

function refusal(promise: Promise<unknown>): Promise<SessionInUseError> {
  return promise.then(
    () => {
      throw new Error("expected the lock to be refused");
    },
    (error: unknown) => error as SessionInUseError,
  );
}

describe("session file lock", () => {
  it("the heartbeat writes a record deleted under its holder again once its folder is back", async () => {
    const holder = newLockHolder();
    const lock = await lockSessionFile(file, holder);
    // The whole session folder removed while in use: nothing is created in its place meanwhile.
    await rm(dir, { recursive: true, force: true });
    await refreshHeldRecords();
    expect(existsSync(dir)).toBe(false);
    // The session file written again whole (its folder made again): the next beat puts the record back.
    mkdirSync(dir, { recursive: true });
    await refreshHeldRecords();
    const record = JSON.parse(readFileSync(recordPath(lock.file), "utf8")) as LockRecord;
    expect(record).toMatchObject({ pid: process.pid, token: holder.token });
    await lock.release();
    expect(existsSync(recordPath(lock.file))).toBe(false);
  });

  it("one holder may take a file it holds again; the record goes with the last release", async () => {
    const holder = newLockHolder();
    const first = await lockSessionFile(file, holder);
    const second = await lockSessionFile(file, holder);
    const record = JSON.parse(readFileSync(recordPath(first.file), "utf8")) as LockRecord;
    expect(record).toMatchObject({ pid: process.pid, token: holder.token });
    await first.release();
    await first.release();
    expect(existsSync(recordPath(first.file))).toBe(true);
    await second.release();
    expect(existsSync(recordPath(first.file))).toBe(false);
  });

  it("another holder of this process (a sibling agent) is refused, naming the file and the pid, until the first lets go", async () => {
    const first = await lockSessionFile(file, newLockHolder());
    const other = newLockHolder();
    const error = await refusal(lockSessionFile(file, other));
    expect(error.code).toBe(ErrorCode.IN_USE);
    expect(error.message).toContain(`Session file ${first.file} is in use by another agent of this process (pid ${process.pid}`);
    expect(error.owner.pid).toBe(process.pid);
    await first.release();
    await (await lockSessionFile(file, other)).release();
  });

  it("two holders asking at once: exactly one gets it", async () => {
    const results = await Promise.allSettled([lockSessionFile(file, newLockHolder()), lockSessionFile(file, newLockHolder())]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect(results.find((result) => result.status === "rejected")).toMatchObject({ reason: { code: ErrorCode.IN_USE } });
  });

  it("a live process's lock is refused; once it is SIGKILLed, its lock is taken over", async () => {
    const { child, exited } = sleeper();
    writeRecord(recordPath(file), await recordFor(child.pid!));
    const error = await refusal(lockSessionFile(file, newLockHolder()));
    expect(error.message).toMatch(new RegExp(`is in use by another process \\(pid ${child.pid}, since 2026-01-01T00:00:00.000Z\\)`));
    child.kill("SIGKILL");
    await exited;
    const lock = await lockSessionFile(file, newLockHolder());
    expect(lock.recovered?.pid).toBe(child.pid);
    expect(JSON.parse(readFileSync(recordPath(lock.file), "utf8"))).toMatchObject({ pid: process.pid });
    await lock.release();
  });

  it.runIf(process.platform === "linux")("a reused pid (the same pid, a later start time) does not hold the lock", async () => {
    const { child } = sleeper();
    writeRecord(recordPath(file), await recordFor(child.pid!, { startTime: "1" }));
    const lock = await lockSessionFile(file, newLockHolder());
    expect(lock.recovered?.pid).toBe(child.pid);
    await lock.release();
  });

  it("a lock from another machine holds while it is refreshed, and is stale a minute after", async () => {
    writeRecord(recordPath(file), await recordFor(424242, { machine: "elsewhere|boot|ns" }));
    const error = await refusal(lockSessionFile(file, newLockHolder()));
    expect(error.message).toContain("is in use by pid 424242 on elsewhere");
    const old = new Date(Date.now() - 2 * 60_000);
    utimesSync(recordPath(file), old, old);
    const lock = await lockSessionFile(file, newLockHolder());
    expect(lock.recovered?.pid).toBe(424242);
    await lock.release();
  });

  it("a record that is not one holds the file while it may be being written (10 s), then nothing", async () => {
    writeFileSync(recordPath(file), "");
    expect(await refusal(lockSessionFile(file, newLockHolder()))).toMatchObject({
      code: ErrorCode.IN_USE,
      message: expect.stringContaining("is being taken by another process"),
    });
    const old = new Date(Date.now() - 20_000);
    for (const text of ["", "{not json"]) {
      writeFileSync(recordPath(file), text);
      utimesSync(recordPath(file), old, old);
      await (await lockSessionFile(file, newLockHolder())).release();
    }
  });

  it("a takeover mutex left by a crash is stale after 10 s", async () => {
    writeRecord(recordPath(file), await recordFor(424242, { machine: "elsewhere|boot|ns" }));
    const old = new Date(Date.now() - 2 * 60_000);
    utimesSync(recordPath(file), old, old);
    mkdirSync(`${recordPath(file)}.mutex`);
    utimesSync(`${recordPath(file)}.mutex`, old, old);
    const lock = await lockSessionFile(file, newLockHolder());
    expect(lock.recovered?.pid).toBe(424242);
    expect(existsSync(`${recordPath(file)}.mutex`)).toBe(false);
    await lock.release();
  });

  it("a record taken over by another process meanwhile is not removed by the old holder's release", async () => {
    const lock = await lockSessionFile(file, newLockHolder());
    writeRecord(recordPath(lock.file), await recordFor(424242, { machine: "elsewhere|boot|ns" }));
    await lock.release();
    expect(existsSync(recordPath(lock.file))).toBe(true);
  });
});
