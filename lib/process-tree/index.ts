/**
 * Stopping a command and everything it started (the bash plugin's commands, `!command` secrets). On POSIX the shell is spawned detached, so its
 * pid is a process-group id and one signal reaches the whole tree (a `sleep &` included). Windows
 * has no process groups: `taskkill /T` walks the tree from the shell's pid, and /F because
 * console programs ignore the polite close request.
 */
import type { spawn as spawnType } from "node:child_process";

export type TreeSignal = "SIGTERM" | "SIGKILL";

export interface ProcessTreeSystem {
  platform: NodeJS.Platform;
  kill(pid: number, signal: TreeSignal): void;
  spawn: typeof spawnType;
}

/** Spawn options that make `signalProcessTree` work: a process group of its own on POSIX, no console window on Windows. */
export function treeSpawnOptions(platform: NodeJS.Platform): { detached: boolean; windowsHide: boolean } {
  return { detached: platform !== "win32", windowsHide: true };
}

/** Signals the tree rooted at `pid`; a tree that is already gone is not an error. */
export function signalProcessTree(pid: number, signal: TreeSignal, system: ProcessTreeSystem): void {
  if (system.platform === "win32") {
    // Forced either way: a SIGTERM that only some members honour leaves the rest holding the pipes.
    const taskkill = system.spawn("taskkill", ["/F", "/T", "/PID", String(pid)], { stdio: "ignore", windowsHide: true });
    taskkill.on("error", () => undefined);
    return;
  }
  try {
    system.kill(-pid, signal);
  } catch {
    // No such group (the shell never became a leader, or everyone already left): the shell alone.
    try {
      system.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}
