/**
 * One writer per session file. Whoever writes a session file holds its lock: an ownership record
 * beside it (`.<name>.lock`: pid, start time, machine, holder token) that a second agent, in this
 * process or another, finds and is refused by (`E_IN_USE`, naming the file and the owner
 * pid). A record whose owner is gone (SIGKILL, crash, reboot, a reused pid) is taken over; one
 * written on another machine or in another pid namespace is trusted while its owner refreshes
 * it (every 15 s) and taken over 60 s after it stops. A record appears whole or not at all, and
 * a dead owner's is removed under a short mutex, so two processes recovering it cannot both win.
 *
 * Within a process, holders are agents (one per session store): the same holder may take a file
 * it holds again (switching to its own file: counted), another holder may not (two siblings).
 * The registry lives on `globalThis`, so two copies of this module (a bundle and an SDK import)
 * still see each other. Records still held at process exit are removed by an exit handler.
 */
import { readFileSync, rmSync } from "node:fs";
import { realpath, rm, utimes } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { ErrorCode, KernelError } from "../../kernel/index.js";
import { makeFolder } from "../make-folder/index.js";
import { secureRandomHex } from "../random-ids/index.js";
import { liveness, ownIdentity, type ProcessIdentity } from "./process-identity.js";
import { MUTEX_STALE_MS, withMutex } from "./mutex.js";
import { createRecord, readRecord, recordPath, type FoundRecord, type LockRecord } from "./record.js";

export type { LockRecord } from "./record.js";

/** How often a held record's mtime is refreshed (for owners on other machines to see it is alive). */
export const HEARTBEAT_MS = 15_000;
/** A record from another machine whose mtime is older than this is stale. */
export const REMOTE_STALE_MS = 60_000;

/** One agent's identity as a lock holder (a session store makes one). */
export interface LockHolder {
  readonly token: string;
}

export function newLockHolder(): LockHolder {
  // Drawn when a lock is first taken: the CSPRNG's module costs a start ~7-10 ms, and a process
  // without a session file (--no-session, a client that only asks) never locks one.
  let token: string | undefined;
  return {
    get token() {
      token ??= secureRandomHex(8);
      return token;
    },
  };
}

export interface SessionFileLock {
  /** The file locked, its folder resolved through symlinks. */
  readonly file: string;
  /** The dead owner whose record this acquisition replaced, if any (for a note to the user). */
  readonly recovered: LockRecord | undefined;
  /** Gives the lock back (once; a second call does nothing). */
  release(): Promise<void>;
}

/** The refusal: a KernelError (`E_IN_USE`) that also carries the owner. */
export class SessionInUseError extends KernelError {
  readonly owner: Pick<LockRecord, "pid" | "since" | "file">;
  constructor(message: string, owner: LockRecord) {
    super(ErrorCode.IN_USE, message);
    this.owner = { pid: owner.pid, since: owner.since, file: owner.file };
  }
}

interface Held {
  holder: string;
  count: number;
  record: LockRecord;
}

interface Registry {
  held: Map<string, Held>;
  /** Per file: the acquisition or release in progress, so they run one at a time within the process. */
  busy: Map<string, Promise<unknown>>;
  heartbeat: ReturnType<typeof setInterval> | undefined;
  exitHook: boolean;
}

const REGISTRY = Symbol.for("atomic.sessionLocks.v1");
const registry: Registry =
  ((globalThis as Record<symbol, unknown>)[REGISTRY] as Registry | undefined) ??
  ((globalThis as Record<symbol, unknown>)[REGISTRY] = { held: new Map(), busy: new Map(), heartbeat: undefined, exitHook: false } satisfies Registry);

/** Takes `file` for `holder`, or throws `SessionInUseError`; other failures (an unwritable folder) throw as they are. */
export async function lockSessionFile(file: string, holder: LockHolder): Promise<SessionFileLock> {
  await makeFolder(dirname(file), 0o700);
  const key = join(await realpath(dirname(file)), basename(file));
  const recovered = await serialized(key, () => acquire(key, holder.token));
  let released = false;
  return {
    file: key,
    recovered,
    release: async () => {
      if (released) return;
      released = true;
      await serialized(key, () => release(key, holder.token));
    },
  };
}

function serialized<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = registry.busy.get(key) ?? Promise.resolve();
  const next = previous.then(task, task);
  const settled = next.catch(() => undefined);
  registry.busy.set(key, settled);
  void settled.then(() => {
    if (registry.busy.get(key) === settled) registry.busy.delete(key);
  });
  return next;
}

async function acquire(key: string, token: string): Promise<LockRecord | undefined> {
  const held = registry.held.get(key);
  if (held) {
    if (held.holder !== token) throw inUse(key, held.record, "sibling");
    held.count++;
    return undefined;
  }
  const self = await ownIdentity();
  const record: LockRecord = { ...self, token, since: new Date().toISOString(), file: key };
  const path = recordPath(key);
  let recovered: LockRecord | undefined;
  for (let attempt = 0; attempt < 8; attempt++) {
    if (await createRecord(path, record)) {
      registry.held.set(key, { holder: token, count: 1, record });
      startHeartbeat();
      return recovered;
    }
    const found = await readRecord(path);
    // Released between the two looks: try again.
    if (!found) continue;
    if (await isHeld(found, self)) {
      if (!found.record) throw new KernelError(ErrorCode.IN_USE, `Session file ${key} is being taken by another process (its lock ${path} is being written): try again`);
      throw inUse(key, found.record, found.record.machine === self.machine ? "process" : "remote", found.mtimeMs);
    }
    recovered = found.record;
    // Removed only if it is still the record judged dead: a fresh one put there meanwhile stays.
    await withMutex(path, async () => {
      if ((await readRecord(path))?.text === found.text) await rm(path, { force: true });
    });
  }
  throw new KernelError(ErrorCode.CONFLICT, `Cannot lock session file ${key}: its lock ${path} kept changing while it was taken`);
}

/** Whether a record found on disk holds the file. */
async function isHeld(found: FoundRecord, self: ProcessIdentity): Promise<boolean> {
  // Not a record: one being written where there are no hard links is young; an old one is damage.
  if (!found.record) return Date.now() - found.mtimeMs < MUTEX_STALE_MS;
  // Ours, yet not in the registry: left by this process's own earlier holder. Free.
  if (isSameProcess(found.record, self)) return false;
  return ownerIsLive(found.record, found.mtimeMs);
}

async function release(key: string, token: string): Promise<void> {
  const held = registry.held.get(key);
  if (!held || held.holder !== token) return;
  if (--held.count > 0) return;
  registry.held.delete(key);
  if (registry.held.size === 0) stopHeartbeat();
  const path = recordPath(key);
  const found = await readRecord(path);
  // Another process may have taken it over meanwhile (we looked dead or silent to it): leave theirs.
  if (found?.record?.token === token) await rm(path, { force: true });
}

function isSameProcess(record: ProcessIdentity, self: ProcessIdentity): boolean {
  return record.pid === self.pid && record.machine === self.machine && record.startTime === self.startTime;
}

async function ownerIsLive(record: LockRecord, mtimeMs: number): Promise<boolean> {
  const state = await liveness(record);
  if (state === "unknown") return Date.now() - mtimeMs < REMOTE_STALE_MS;
  return state === "alive";
}

function inUse(file: string, owner: LockRecord, where: "sibling" | "process" | "remote", mtimeMs = 0): SessionInUseError {
  const since = owner.since ? `, since ${owner.since}` : "";
  if (where === "sibling") {
    return new SessionInUseError(`Session file ${file} is in use by another agent of this process (pid ${owner.pid}${since}): close it there first`, owner);
  }
  if (where === "process") {
    return new SessionInUseError(`Session file ${file} is in use by another process (pid ${owner.pid}${since}): close it there first, or open another session`, owner);
  }
  const host = owner.machine.split("|")[0] || "another machine";
  const seconds = Math.max(0, Math.round((Date.now() - mtimeMs) / 1000));
  return new SessionInUseError(
    `Session file ${file} is in use by pid ${owner.pid} on ${host} (another machine or container${since}, seen ${seconds} s ago); its lock ${recordPath(file)} is stale ${REMOTE_STALE_MS / 1000} s after that process stops refreshing it`,
    owner,
  );
}

function startHeartbeat(): void {
  if (!registry.exitHook) {
    registry.exitHook = true;
    process.once("exit", removeHeldRecords);
  }
  if (registry.heartbeat) return;
  registry.heartbeat = setInterval(() => void refreshHeldRecords(), HEARTBEAT_MS);
  registry.heartbeat.unref();
}

/**
 * The heartbeat: every record held is touched, so other machines see its owner alive. A record
 * deleted under us (its session folder removed while in use, the session file then written again
 * whole) is written again once its folder is back, so other processes keep being refused.
 */
export async function refreshHeldRecords(now = new Date()): Promise<void> {
  await Promise.all(
    [...registry.held].map(async ([key, held]) => {
      try {
        await utimes(recordPath(key), now, now);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") await createRecord(recordPath(key), held.record).catch(() => false);
      }
    }),
  );
}

function stopHeartbeat(): void {
  if (registry.heartbeat) clearInterval(registry.heartbeat);
  registry.heartbeat = undefined;
}

/** At exit (also `process.exit()` from an error path): no record of ours outlives us. */
function removeHeldRecords(): void {
  for (const [key, held] of registry.held) {
    try {
      const text = readFileSync(recordPath(key), "utf8");
      if ((JSON.parse(text) as { token?: unknown }).token === held.holder) rmSync(recordPath(key), { force: true });
    } catch {
      // Gone or unreadable: nothing of ours to remove.
    }
  }
  registry.held.clear();
}
