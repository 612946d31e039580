/**
 * Grep's side of the regex worker: sends batches of texts and returns the matching line
 * indices. The worker runs under a watchdog (lib/worker): a pattern stuck on one line for
 * LINE_DEADLINE_MS, an abort or a crash terminates it and rejects the search, so the event loop
 * stays free for abort, stdin EOF and signals whatever the pattern does. One idle worker is kept
 * for the next call (starting one costs ~50 ms); a terminated one is simply replaced.
 */
import { WatchedWorker, WorkerStalledError } from "../../lib/worker/index.js";
import { ABORTED_MESSAGE } from "./paths.js";
import { LINE_DEADLINE_MS, LINE_SLOT, PROGRESS_SLOTS, TEXT_SLOT, type RegexJob, type RegexJobResult } from "./regex-protocol.js";

type RegexWorker = WatchedWorker<RegexJob, RegexJobResult>;

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

/** The regex workers of one grep tool: at most one kept idle between calls. */
export class RegexWorkers {
  #idle: RegexWorker | undefined;
  #closed = false;

  /** A search for one grep call, on the idle worker when there is a usable one. */
  start(regex: RegExp, signal: AbortSignal): RegexSearch {
    const idle = this.#idle;
    this.#idle = undefined;
    const worker =
      idle?.usable === true
        ? idle
        : new WatchedWorker<RegexJob, RegexJobResult>(new URL("./regex-worker.js", import.meta.url), {
            deadlineMs: LINE_DEADLINE_MS,
            slots: PROGRESS_SLOTS,
            abortError: () => new Error(ABORTED_MESSAGE),
          });
    return new RegexSearch(worker, regex, signal, (done) => this.#release(done));
  }

  /** Stops the idle worker; later calls start new ones. */
  async close(): Promise<void> {
    this.#closed = true;
    const idle = this.#idle;
    this.#idle = undefined;
    await idle?.close();
  }

  #release(worker: RegexWorker): Promise<void> {
    if (this.#closed || !worker.usable || this.#idle) return worker.close();
    this.#idle = worker;
    return Promise.resolve();
  }
}

export class RegexSearch {
  readonly #worker: RegexWorker;
  readonly #source: string;
  readonly #flags: string;
  readonly #signal: AbortSignal;
  readonly #release: (worker: RegexWorker) => Promise<void>;

  constructor(worker: RegexWorker, regex: RegExp, signal: AbortSignal, release: (worker: RegexWorker) => Promise<void>) {
    this.#worker = worker;
    this.#source = regex.source;
    this.#flags = regex.flags;
    this.#signal = signal;
    this.#release = release;
  }

  /** Matching line indices per text (0-based, ascending). One search at a time. */
  async search(texts: Uint8Array[]): Promise<number[][]> {
    let result: RegexJobResult;
    try {
      result = await this.#worker.run({ source: this.#source, flags: this.#flags, texts }, this.#signal);
    } catch (error) {
      if (!(error instanceof WorkerStalledError)) throw error;
      throw new RegexLineError("stalled", `over the ${LINE_DEADLINE_MS} ms deadline`, error.progress[TEXT_SLOT]!, error.progress[LINE_SLOT]!);
    }
    if (!result.ok) throw new RegexLineError("failed", result.error, result.text, result.line);
    return result.matches;
  }

  /** Hands the worker back (kept if still usable). */
  close(): Promise<void> {
    return this.#release(this.#worker);
  }
}
