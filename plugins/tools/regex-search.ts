/**
 * Grep's side of the regex worker: sends batches of texts and returns the matching line
 * indices. The worker runs under a watchdog (lib/worker): a pattern stuck on one line for
 * LINE_DEADLINE_MS, an abort or a crash terminates it and rejects the search, so the event loop
 * stays free for abort, stdin EOF and signals whatever the pattern does. Idle workers are kept
 * for the next call (starting one costs ~50 ms) for a while; a terminated one is simply replaced.
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

/** How many idle workers are kept, and for how long, unless told otherwise. */
export const DEFAULT_IDLE_WORKERS = 2;
export const DEFAULT_IDLE_MS = 30_000;

/**
 * The regex workers of a process scope (every agent's grep): a search takes an idle worker or
 * starts one; a finished one is kept for the next search (up to `maxIdle`), and an idle one is
 * stopped after `idleMs`, so agents that grepped once hold no thread for good.
 */
export class RegexWorkers {
  readonly #idle: { worker: RegexWorker; timer: NodeJS.Timeout }[] = [];
  readonly #maxIdle: number;
  readonly #idleMs: number;
  #started = 0;
  #closed = false;

  constructor(options: { maxIdle?: number; idleMs?: number } = {}) {
    this.#maxIdle = options.maxIdle ?? DEFAULT_IDLE_WORKERS;
    this.#idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  }

  /** Workers started so far (tests, diagnostics). */
  get started(): number {
    return this.#started;
  }

  /** Idle workers kept now. */
  get idleCount(): number {
    return this.#idle.length;
  }

  /** A search for one grep call, on an idle worker when there is a usable one. */
  start(regex: RegExp, signal: AbortSignal): RegexSearch {
    let worker: RegexWorker | undefined;
    while (!worker && this.#idle.length > 0) {
      const kept = this.#idle.pop()!;
      clearTimeout(kept.timer);
      if (kept.worker.usable) worker = kept.worker;
      else void kept.worker.close();
    }
    worker ??= this.#startWorker();
    return new RegexSearch(worker, regex, signal, (done) => this.#release(done));
  }

  /** Stops the idle workers; a search still running stops its worker when it ends. */
  async close(): Promise<void> {
    this.#closed = true;
    const idle = this.#idle.splice(0);
    for (const kept of idle) clearTimeout(kept.timer);
    await Promise.all(idle.map((kept) => kept.worker.close()));
  }

  #startWorker(): RegexWorker {
    this.#started++;
    return new WatchedWorker<RegexJob, RegexJobResult>(new URL("./regex-worker.js", import.meta.url), {
      deadlineMs: LINE_DEADLINE_MS,
      slots: PROGRESS_SLOTS,
      abortError: () => new Error(ABORTED_MESSAGE),
    });
  }

  #release(worker: RegexWorker): Promise<void> {
    if (this.#closed || !worker.usable || this.#idle.length >= this.#maxIdle) return worker.close();
    const kept = { worker, timer: setTimeout(() => this.#reap(kept), this.#idleMs) };
    kept.timer.unref();
    this.#idle.push(kept);
    return Promise.resolve();
  }

  #reap(kept: { worker: RegexWorker; timer: NodeJS.Timeout }): void {
    const index = this.#idle.indexOf(kept);
    if (index < 0) return;
    this.#idle.splice(index, 1);
    void kept.worker.close();
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
