/**
 * Worker thread of the export: renders markdown texts with marked and highlight.js, stamping
 * progress before each one, so the main thread can stop a text that takes too long (marked is
 * quadratic on some inputs) without its own event loop ever being blocked.
 */
import { parentPort, workerData } from "node:worker_threads";
import { WorkerProgress } from "../../lib/worker/index.js";
import { createMarkdownRenderer } from "./markdown.js";
import { TEXT_SLOT, type MarkdownJob, type MarkdownJobResult } from "./markdown-protocol.js";

const progress = new WorkerProgress(workerData);
const markdown = createMarkdownRenderer();

function render(job: MarkdownJob): MarkdownJobResult {
  const result: MarkdownJobResult = { html: [], errors: [] };
  job.texts.forEach((text, index) => {
    progress.set(TEXT_SLOT, index);
    progress.beat();
    try {
      result.html.push(markdown(text));
    } catch (error) {
      result.html.push("");
      result.errors.push({ index, message: (error as Error).message.split("\n")[0]! });
    }
  });
  return result;
}

parentPort!.on("message", (job: MarkdownJob) => parentPort!.postMessage(render(job)));
progress.ready();
