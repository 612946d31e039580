/**
 * Worker thread of the grep tool: tests each line of the texts it is sent against the regular
 * expression, stamping progress before every line. A catastrophic pattern blocks only this
 * thread; the main thread sees the stamps stand still and terminates it. Kept between grep
 * calls (idle, it does not hold the process open).
 */
import { parentPort, workerData } from "node:worker_threads";
import { WorkerProgress } from "../../lib/worker/index.js";
import { LINE_SLOT, splitLines, TEXT_SLOT, type RegexJob, type RegexJobResult } from "./regex-protocol.js";

const progress = new WorkerProgress(workerData);
/** The last pattern: a grep call sends many batches with the same one. */
let compiled: { source: string; flags: string; regex: RegExp } | undefined;

function search(job: RegexJob): RegexJobResult {
  if (compiled?.source !== job.source || compiled.flags !== job.flags) compiled = { source: job.source, flags: job.flags, regex: new RegExp(job.source, job.flags) };
  const { regex } = compiled;
  const matches: number[][] = [];
  for (let t = 0; t < job.texts.length; t++) {
    const bytes = job.texts[t]!;
    // Decoded here, not on the main thread: most files never match and are never decoded there.
    const lines = splitLines(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"));
    const found: number[] = [];
    progress.set(TEXT_SLOT, t);
    for (let i = 0; i < lines.length; i++) {
      progress.set(LINE_SLOT, i);
      progress.beat();
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
progress.ready();
