import { describe, expect, it } from "vitest";
import { WatchedWorker, WorkerStalledError } from "./index.js";

type Job = { echo?: string; busyMs?: number; hang?: boolean };
const start = () => new WatchedWorker<Job, string>(new URL("./echo-worker.test-support.js", import.meta.url), { deadlineMs: 300, slots: 2 });

describe("WatchedWorker", () => {
  it("runs jobs one after another, and lets slow work run past the deadline while it beats", async () => {
    const worker = start();
    expect(await worker.run({ echo: "one" })).toBe("one");
    expect(await worker.run({ busyMs: 700, echo: "slow" })).toBe("slow");
    await worker.close();
  });

  it("terminates a worker stuck without a beat and rejects its job", async () => {
    const worker = start();
    await expect(worker.run({ hang: true })).rejects.toBeInstanceOf(WorkerStalledError);
    expect(worker.usable).toBe(false);
    await expect(worker.run({ echo: "again" })).rejects.toThrow("no progress for 300 ms");
    await worker.close();
  });

  it("rejects the running job as soon as its signal aborts; an earlier job's signal no longer matters", async () => {
    const worker = new WatchedWorker<Job, string>(new URL("./echo-worker.test-support.js", import.meta.url), {
      deadlineMs: 60_000,
      slots: 2,
      abortError: () => new Error("Operation aborted"),
    });
    const first = new AbortController();
    expect(await worker.run({ echo: "kept" }, first.signal)).toBe("kept");
    first.abort();
    expect(worker.usable).toBe(true);
    const controller = new AbortController();
    const job = worker.run({ hang: true }, controller.signal);
    setTimeout(() => controller.abort(), 200);
    await expect(job).rejects.toThrow("Operation aborted");
    await worker.close();
  });
});
