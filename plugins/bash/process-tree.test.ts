import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { isProcessAlive, waitUntil } from "./process-probe.js";
import { signalProcessTree, treeSpawnOptions, type ProcessTreeSystem } from "../../lib/process-tree/index.js";

function fakeSystem(platform: NodeJS.Platform, failing: Set<number> = new Set()) {
  const kills: [number, string][] = [];
  const spawns: [string, string[]][] = [];
  const system: ProcessTreeSystem = {
    platform,
    kill: (pid, signal) => {
      kills.push([pid, signal]);
      if (failing.has(pid)) throw Object.assign(new Error("ESRCH"), { code: "ESRCH" });
    },
    spawn: ((command: string, args: string[]) => {
      spawns.push([command, args]);
      return { on: () => undefined };
    }) as unknown as ProcessTreeSystem["spawn"],
  };
  return { system, kills, spawns };
}

describe("signalProcessTree", () => {
  it("signals the process group on POSIX", () => {
    const { system, kills, spawns } = fakeSystem("linux");
    signalProcessTree(42, "SIGTERM", system);
    expect(kills).toEqual([[-42, "SIGTERM"]]);
    expect(spawns).toEqual([]);
  });

  it("falls back to the process when there is no group, and ignores a process already gone", () => {
    const { system, kills } = fakeSystem("darwin", new Set([-42, 42]));
    expect(() => signalProcessTree(42, "SIGKILL", system)).not.toThrow();
    expect(kills).toEqual([
      [-42, "SIGKILL"],
      [42, "SIGKILL"],
    ]);
  });

  it("on Windows forces taskkill over the whole tree, for either signal", () => {
    const { system, kills, spawns } = fakeSystem("win32");
    signalProcessTree(42, "SIGTERM", system);
    signalProcessTree(42, "SIGKILL", system);
    expect(spawns).toEqual([
      ["taskkill", ["/F", "/T", "/PID", "42"]],
      ["taskkill", ["/F", "/T", "/PID", "42"]],
    ]);
    expect(kills).toEqual([]);
  });

  it("spawns detached (a group of its own) except on Windows, never with a console window", () => {
    expect(treeSpawnOptions("linux")).toEqual({ detached: true, windowsHide: true });
    expect(treeSpawnOptions("win32")).toEqual({ detached: false, windowsHide: true });
  });

  it.runIf(process.platform !== "win32")("kills a real tree, background children included", async () => {
    const child = spawn("/bin/sh", ["-c", "sleep 30 & echo $!; wait"], { stdio: ["ignore", "pipe", "ignore"], ...treeSpawnOptions(process.platform) });
    const grandchild = await new Promise<number>((resolve) => child.stdout.once("data", (bytes: Buffer) => resolve(Number(bytes.toString().trim()))));
    signalProcessTree(child.pid!, "SIGKILL", { platform: process.platform, kill: (pid, signal) => process.kill(pid, signal), spawn });
    expect(await waitUntil(() => !isProcessAlive(grandchild), 5000)).toBe(true);
  });
});
