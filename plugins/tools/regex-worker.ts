/**
 * Worker thread of the grep tool: tests each line of the texts it is sent against the regular
 * expression, stamping progress into shared memory before every line. A catastrophic pattern
 * blocks only this thread; the main thread watches the stamps and terminates it.
 */
import { parentPort, workerData } from "node:worker_threads";
import { PROGRESS, splitLines, type RegexJob, type RegexJobResult, type RegexWorkerData } from "./regex-protocol.js";

const data = workerData as RegexWorkerData;
const progress = new Int32Array(data.progress);
const regex = new RegExp(data.source, data.flags);

function search(job: RegexJob): RegexJobResult {
  const matches: number[][] = [];
  for (let t = 0; t < job.texts.length; t++) {
    const bytes = job.texts[t]!;
    // Decoded here, not on the main thread: most files never match and are never decoded there.
    const lines = splitLines(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"));
    const found: number[] = [];
    progress[PROGRESS.text] = t;
    for (let i = 0; i < lines.length; i++) {
      progress[PROGRESS.line] = i;
      Atomics.add(progress, PROGRESS.beat, 1);
      try {
        if (regex.test(lines[i]!)) found.push(i);
      } catch (error) {
        return { ok: false, error: (error as Error).message, text: t, line: i };
      }
    }
    matches.push(found);
  }
  return { ok: true, matches };
}

parentPort!.on("message", (job: RegexJob) => parentPort!.postMessage(search(job)));
Atomics.store(progress, PROGRESS.ready, 1);
