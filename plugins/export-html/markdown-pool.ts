/**
 * The export's markdown, off the main thread: texts go to a worker in batches; a text the guard
 * rejects, that marked throws on, or that runs past MARKDOWN_DEADLINE_MS (the worker is then
 * replaced) comes back as escaped plain text with the reason. Every text gets an answer.
 */
import { WatchedWorker, WorkerStalledError } from "../../lib/worker/index.js";
import { markdownRisk, plainTextHtml, plainTextHtmlInSlices } from "./markdown-guard.js";
import { MARKDOWN_DEADLINE_MS, PROGRESS_SLOTS, TEXT_SLOT, type MarkdownJob, type MarkdownJobResult } from "./markdown-protocol.js";

/** Texts and characters per message to the worker: few round trips, bounded copies. */
const BATCH_TEXTS = 1000;
const BATCH_CHARS = 1024 * 1024;

export class MarkdownPool {
  #worker: WatchedWorker<MarkdownJob, MarkdownJobResult> | undefined;
  /** Calls run one after another: the worker takes one job at a time. */
  #queue: Promise<unknown> = Promise.resolve();

  /** HTML for each text, in order. */
  renderAll(texts: readonly string[]): Promise<string[]> {
    const run = this.#queue.then(() => this.#renderAll(texts));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #renderAll(texts: readonly string[]): Promise<string[]> {
    const html = new Array<string>(texts.length);
    const queue: number[] = [];
    for (let index = 0; index < texts.length; index++) {
      const risk = markdownRisk(texts[index]!);
      if (risk === undefined) queue.push(index);
      else html[index] = await plainTextHtmlInSlices(texts[index]!, risk);
    }
    let next = 0;
    while (next < queue.length) {
      const batch: number[] = [];
      for (let chars = 0; next < queue.length && batch.length < BATCH_TEXTS && chars < BATCH_CHARS; next++) {
        batch.push(queue[next]!);
        chars += texts[queue[next]!]!.length;
      }
      const done = await this.#renderBatch(batch.map((index) => texts[index]!));
      done.forEach((result, i) => (html[batch[i]!] = result));
      // A text that stalled the worker ends its batch early: the rest goes round again.
      next -= batch.length - done.length;
    }
    return html;
  }

  async close(): Promise<void> {
    await this.#queue;
    await this.#worker?.close();
    this.#worker = undefined;
  }

  /** HTML for a prefix of `texts`: all of them, or up to and including one that stalled. */
  async #renderBatch(texts: string[]): Promise<string[]> {
    this.#worker ??= new WatchedWorker(new URL("./markdown-worker.js", import.meta.url), { deadlineMs: MARKDOWN_DEADLINE_MS, slots: PROGRESS_SLOTS });
    try {
      const { html, errors } = await this.#worker.run({ texts });
      for (const { index, message } of errors) html[index] = plainTextHtml(texts[index]!, `the markdown renderer failed on it (${message})`);
      return html;
    } catch (error) {
      this.#worker = undefined;
      if (!(error instanceof WorkerStalledError)) throw error;
      const stalled = error.progress[TEXT_SLOT]!;
      // Texts before the stalled one were rendered, but their results died with the worker.
      const redo = texts.slice(0, stalled);
      const before = redo.length > 0 ? await this.#renderBatch(redo) : [];
      return [...before, plainTextHtml(texts[stalled]!, `it took over ${MARKDOWN_DEADLINE_MS / 1000} s to render`)];
    }
  }
}
