import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { definePlugin, Kernel, type KernelConfig } from "./index.js";
import { SlowNotices, watchSlow } from "./slow-work.js";

const config = (): KernelConfig => ({ agentDir: "/tmp/none", cwd: "/tmp", settings: {}, cli: { positionals: [] }, env: {}, trusted: false });
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("slow work", () => {
  it("notices follow the schedule, then come every minute, and stop with the work", async () => {
    const seen: number[] = [];
    const work = watchSlow(sleep(200_000), { notice: (seconds) => seen.push(seconds), noticeMs: [5_000, 15_000] });
    await vi.advanceTimersByTimeAsync(200_000);
    await work;
    expect(seen).toEqual([5, 15, 75, 135, 195]);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(seen).toHaveLength(5);
  });

  it("steps missed while the event loop was blocked give one notice, not a burst", () => {
    const seen: number[] = [];
    const notices = new SlowNotices((seconds) => seen.push(seconds), [5_000, 15_000, 30_000]);
    vi.setSystemTime(Date.now() + 31_000);
    notices.check();
    notices.check();
    notices.stop();
    expect(seen).toEqual([31]);
  });

  it("a limit ends the wait with the caller's error", async () => {
    const work = watchSlow(new Promise(() => undefined), { notice: () => undefined, limitMs: 1_000, onLimit: () => new Error("too long") });
    const outcome = expect(work).rejects.toThrow("too long");
    await vi.advanceTimersByTimeAsync(1_000);
    await outcome;
  });
});

describe("the kernel waits on boot without a fixed deadline", () => {
  it("a boot tap and an apply() that take minutes finish, with notices naming the plugin and the hook", async () => {
    const lines: string[] = [];
    const log = { info: (line: string) => lines.push(line), warn: () => undefined, error: () => undefined };
    const k = new Kernel({ config: config(), log });
    const applied = k.use([
      definePlugin({
        name: "big-session",
        apply: async (kc) => {
          await sleep(12_000);
          kc.hooks.boot_start.tapPromise(kc.name, () => sleep(100_000));
        },
      }),
    ]);
    await vi.advanceTimersByTimeAsync(12_000);
    await applied;
    const booted = k.boot();
    await vi.advanceTimersByTimeAsync(100_000);
    await booted;
    expect(k.frozen).toBe(true);
    expect(lines).toEqual([
      'Plugin "big-session" is still running apply() (10 s)',
      'Plugin "big-session" is still running its boot_start hook (10 s)',
      'Plugin "big-session" is still running its boot_start hook (30 s)',
      'Plugin "big-session" is still running its boot_start hook (60 s)',
    ]);
  });
});
