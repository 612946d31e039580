/** Test worker for watched.test.ts: echoes, beats while working, or hangs without beating. */
import { parentPort, workerData } from "node:worker_threads";
import { WorkerProgress } from "./index.js";

const progress = new WorkerProgress(workerData);
parentPort!.on("message", (job: { echo?: string; busyMs?: number; hang?: boolean }) => {
  if (job.hang) for (;;);
  const until = Date.now() + (job.busyMs ?? 0);
  while (Date.now() < until) progress.beat(); // slow, but never stuck
  parentPort!.postMessage(job.echo ?? "done");
});
progress.ready();
