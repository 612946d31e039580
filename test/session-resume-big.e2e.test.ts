/**
 * A big session resumes however long its load takes (issue 39 item 3): there is no fixed deadline
 * on start-up, where `boot_start` once had 15 s and a 1,000,000-entry session could never resume.
 * The agent is stopped (SIGSTOP) while it reads a 100,000-entry file at start-up, for longer than
 * that former limit, as a saturated machine would stall it; once continued it answers with every
 * message. The full 1,000,000-entry resume is measured in bench/session-load.mjs (--resume).
 */
import { createWriteStream, readdirSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { expect, it } from "vitest";
import { RpcClient, tempDir } from "./helpers/rpc-client.js";

const ENTRIES = 100_000;
/** The start-up limit `boot_start` had before: the agent is held longer than this. */
const FORMER_BOOT_LIMIT_MS = 15_000;

async function writeSession(path: string, count: number): Promise<void> {
  const out = createWriteStream(path);
  const write = (value: unknown) => (out.write(`${JSON.stringify(value)}\n`) ? undefined : new Promise<void>((resolve) => out.once("drain", () => resolve())));
  await write({ type: "session", version: 3, id: "big-session", timestamp: new Date(0).toISOString(), cwd: "/tmp" });
  let parentId: string | null = null;
  for (let i = 0; i < count; i++) {
    const id = i.toString(16).padStart(8, "0");
    const message =
      i % 2 === 0
        ? { role: "user", content: `question ${i}`, timestamp: i }
        : {
            role: "assistant",
            content: [{ type: "text", text: `answer ${i}` }],
            api: "replay",
            provider: "replay",
            model: "demo",
            usage: usage(),
            stopReason: "stop",
            timestamp: i,
          };
    await write({ type: "message", id, parentId, timestamp: new Date(i).toISOString(), message });
    parentId = id;
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

function usage() {
  return { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
}

/** True once process `pid` has `path` open (Linux: its /proc fd links). */
function hasOpen(pid: number, path: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === path;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

it.skipIf(process.platform !== "linux")(
  "a 100,000-entry session held mid-load past the former 15 s start-up limit still resumes with every message (--session), and again over switch_session",
  async () => {
    const dir = tempDir("atomic-big-session-");
    const file = join(dir, "big.jsonl");
    await writeSession(file, ENTRIES);
    // Through a shell that execs the CLI: the pid is the agent's own, never a server's (test/helpers/via-server.ts).
    const c = new RpcClient({
      args: ["--mode", "rpc", "--provider", "replay", "--model", "demo", "--session-dir", join(dir, "sessions"), "--session", file],
      launcher: ["sh", "-c", 'exec "$0" "$@"'],
    });
    const pid = c.child.pid!;
    while (!hasOpen(pid, file) && c.child.exitCode === null) await sleep(2);
    expect(c.child.exitCode, c.stderr).toBeNull();
    process.kill(pid, "SIGSTOP");
    await sleep(FORMER_BOOT_LIMIT_MS + 2_000);
    process.kill(pid, "SIGCONT");
    const state = (await c.ok({ type: "get_state" }, 300_000)) as { messageCount: number; sessionFile?: string };
    expect(state.messageCount).toBe(ENTRIES);
    expect(state.sessionFile).toBe(file);

    await c.ok({ type: "new_session" });
    expect(((await c.ok({ type: "get_state" })) as { messageCount: number }).messageCount).toBe(0);
    await c.ok({ type: "switch_session", sessionPath: file }, 300_000);
    expect(((await c.ok({ type: "get_state" })) as { messageCount: number }).messageCount).toBe(ENTRIES);
    expect((await c.close()).code).toBe(0);
  },
  600_000,
);
