/**
 * Who owns a lock, precisely enough to tell a live owner from a dead one on the same machine:
 * a pid alone is not enough (pids are reused, a SIGKILLed process may linger as a zombie until
 * its parent reaps it), so on Linux the owner is its pid plus its start time (`/proc/<pid>/stat`,
 * clock ticks since boot) within one boot and one pid namespace. Elsewhere the pid's existence
 * is all there is to check.
 */
import { readFile, readlink } from "node:fs/promises";
import { hostname } from "node:os";

export interface ProcessIdentity {
  pid: number;
  /** `/proc/<pid>/stat` start time (Linux); null where it cannot be read. */
  startTime: string | null;
  /** Host name, boot id and pid namespace: two identities with the same machine share pids. */
  machine: string;
}

export type Liveness = "alive" | "dead" | "unknown";

let own: Promise<ProcessIdentity> | undefined;

/** This process, computed once. */
export function ownIdentity(): Promise<ProcessIdentity> {
  own ??= (async () => ({ pid: process.pid, startTime: await startTimeOf(process.pid), machine: await machineId() }))();
  return own;
}

/**
 * Whether the process an identity names still runs: `unknown` when it ran on another machine
 * (or in another pid namespace), where its pid means nothing here.
 */
export async function liveness(owner: ProcessIdentity): Promise<Liveness> {
  const self = await ownIdentity();
  if (owner.machine !== self.machine) return "unknown";
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: it exists, but belongs to another user.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return "dead";
  }
  if (process.platform !== "linux") return "alive";
  const stat = await procStat(owner.pid);
  // Gone between the two checks, or a zombie: killed, only waiting for its parent to reap it.
  if (!stat || stat.state === "Z" || stat.state === "X") return "dead";
  // The pid was reused by a process started later than the owner.
  if (owner.startTime !== null && stat.startTime !== owner.startTime) return "dead";
  return "alive";
}

async function startTimeOf(pid: number): Promise<string | null> {
  return (await procStat(pid))?.startTime ?? null;
}

/** State and start time from `/proc/<pid>/stat`; undefined when unreadable (not Linux, or gone). */
async function procStat(pid: number): Promise<{ state: string; startTime: string } | undefined> {
  let text: string;
  try {
    text = await readFile(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces or ")": fields follow the last ")".
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const state = fields[0];
  const startTime = fields[19];
  return state && startTime ? { state, startTime } : undefined;
}

async function machineId(): Promise<string> {
  const parts = [hostname()];
  if (process.platform === "linux") {
    parts.push(
      await readFile("/proc/sys/kernel/random/boot_id", "utf8").then(
        (id) => id.trim(),
        () => "",
      ),
    );
    parts.push(await readlink("/proc/self/ns/pid").catch(() => ""));
  }
  return parts.join("|");
}
