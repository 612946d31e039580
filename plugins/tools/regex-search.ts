/**
 * Grep's side of the regex worker: sends batches of texts and returns the matching line
 * indices. The worker runs under a watchdog (lib/worker): a pattern stuck on one line for
 * LINE_DEADLINE_MS, an abort or a crash terminates it and rejects the search, so the event loop
 * stays free for abort, stdin EOF and signals whatever the pattern does.
 */
import { WatchedWorker, WorkerStalledError } from "../../lib/worker/index.js";
import { ABORTED_MESSAGE } from "./paths.js";
import { LINE_DEADLINE_MS, LINE_SLOT, PROGRESS_SLOTS, TEXT_SLOT, type RegexJob, type RegexJobResult, type RegexWorkerData } from "./regex-protocol.js";

/** The pattern did not finish one line within the deadline, or threw on it. */
export class RegexLineError extends Error {
  constructor(
    /** "stalled" (over the deadline) or "failed" (the regex threw, e.g. stack overflow). */
    readonly reason: "stalled" | "failed",
    message: string,
    /** Index of the text in the batch, and 0-based line within it. */
    readonly text: number,
    readonly line: number,
  ) {
    super(message);
    this.name = "RegexLineError";
  }
}

export class RegexSearch {
  readonly #worker: WatchedWorker<RegexJob, RegexJobResult>;

  constructor(regex: RegExp, signal: AbortSignal) {
    const workerData: RegexWorkerData = { source: regex.source, flags: regex.flags };
    this.#worker = new WatchedWorker(new URL("./regex-worker.js", import.meta.url), {
      deadlineMs: LINE_DEADLINE_MS,
      slots: PROGRESS_SLOTS,
      workerData: { ...workerData },
      signal,
      abortError: () => new Error(ABORTED_MESSAGE),
    });
  }

  /** Matching line indices per text (0-based, ascending). One search at a time. */
  async search(texts: Uint8Array[]): Promise<number[][]> {
    let result: RegexJobResult;
    try {
      result = await this.#worker.run({ texts });
    } catch (error) {
      if (!(error instanceof WorkerStalledError)) throw error;
      throw new RegexLineError("stalled", `over the ${LINE_DEADLINE_MS} ms deadline`, error.progress[TEXT_SLOT]!, error.progress[LINE_SLOT]!);
    }
    if (!result.ok) throw new RegexLineError("failed", result.error, result.text, result.line);
    return result.matches;
  }

  close(): Promise<void> {
    return this.#worker.close();
  }
}
