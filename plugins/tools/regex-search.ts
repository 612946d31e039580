/**
 * Grep's side of the regex worker: sends batches of texts, returns the matching line indices,
 * and keeps watch. A pattern stuck on one line for LINE_DEADLINE_MS, an abort, or a worker
 * crash terminates the worker (V8 interrupts even a running regex) and rejects the search, so
 * the event loop stays free for abort, stdin EOF and signals whatever the pattern does.
 */
import type { Worker } from "node:worker_threads";
import { startModuleWorker } from "../../lib/worker/index.js";
import { ABORTED_MESSAGE } from "./paths.js";
import { LINE_DEADLINE_MS, PROGRESS, PROGRESS_SLOTS, type RegexJobResult, type RegexWorkerData } from "./regex-protocol.js";

/** How often the watchdog looks at the worker's progress. */
const WATCH_INTERVAL_MS = 100;

/** The pattern did not finish one line within the deadline. */
export class RegexStalledError extends Error {
  constructor(
    /** Index of the text (in the batch) and 0-based line within it. */
    readonly text: number,
    readonly line: number,
  ) {
    super(`The pattern ran for over ${LINE_DEADLINE_MS / 1000} seconds on one line without finishing`);
    this.name = "RegexStalledError";
  }
}

/** The regex threw on a line (e.g. "Maximum call stack size exceeded"). */
export class RegexFailedError extends Error {
  constructor(
    message: string,
    readonly text: number,
    readonly line: number,
  ) {
    super(message);
    this.name = "RegexFailedError";
  }
}

interface Pending {
  resolve: (matches: number[][]) => void;
  reject: (error: Error) => void;
}

export class RegexSearch {
  readonly #worker: Worker;
  readonly #progress: Int32Array;
  readonly #signal: AbortSignal;
  readonly #onAbort = () => this.#fail(new Error(ABORTED_MESSAGE));
  #pending: Pending | undefined;
  #failure: Error | undefined;
  #watch: NodeJS.Timeout | undefined;
  #lastBeat = -1;
  #lastChange = 0;

  constructor(regex: RegExp, signal: AbortSignal) {
    const shared = new SharedArrayBuffer(PROGRESS_SLOTS * Int32Array.BYTES_PER_ELEMENT);
    this.#progress = new Int32Array(shared);
    this.#signal = signal;
    const workerData: RegexWorkerData = { progress: shared, source: regex.source, flags: regex.flags };
    this.#worker = startModuleWorker(new URL("./regex-worker.js", import.meta.url), { workerData });
    this.#worker.on("message", (result: RegexJobResult) => this.#settle(result));
    this.#worker.on("error", (error) => this.#fail(error));
    this.#worker.on("exit", () => this.#fail(new Error("The grep worker stopped unexpectedly")));
    signal.addEventListener("abort", this.#onAbort, { once: true });
    if (signal.aborted) this.#onAbort();
  }

  /** Matching line indices per text (0-based, ascending). One search at a time. */
  search(texts: Uint8Array[]): Promise<number[][]> {
    if (this.#failure) return Promise.reject(this.#failure);
    if (this.#pending) return Promise.reject(new Error("RegexSearch.search: a search is already running"));
    return new Promise<number[][]>((resolve, reject) => {
      this.#pending = { resolve, reject };
      this.#lastBeat = Atomics.load(this.#progress, PROGRESS.beat);
      this.#lastChange = performance.now();
      this.#watch = setInterval(() => this.#check(), WATCH_INTERVAL_MS);
      this.#worker.postMessage({ texts });
    });
  }

  /** Stops the worker; safe to call more than once. */
  async close(): Promise<void> {
    this.#signal.removeEventListener("abort", this.#onAbort);
    this.#failure ??= new Error("RegexSearch is closed");
    this.#stopWatch();
    await this.#worker.terminate();
  }

  #check(): void {
    const now = performance.now();
    const beat = Atomics.load(this.#progress, PROGRESS.beat);
    // Time spent loading the worker's module does not count against a line.
    if (beat !== this.#lastBeat || Atomics.load(this.#progress, PROGRESS.ready) === 0) {
      this.#lastBeat = beat;
      this.#lastChange = now;
      return;
    }
    if (now - this.#lastChange < LINE_DEADLINE_MS) return;
    this.#fail(new RegexStalledError(Atomics.load(this.#progress, PROGRESS.text), Atomics.load(this.#progress, PROGRESS.line)));
  }

  #settle(result: RegexJobResult): void {
    const pending = this.#take();
    if (!pending) return;
    if (result.ok) pending.resolve(result.matches);
    else pending.reject(new RegexFailedError(result.error, result.text, result.line));
  }

  #fail(error: Error): void {
    if (this.#failure) return;
    this.#failure = error;
    void this.#worker.terminate();
    this.#take()?.reject(error);
  }

  #take(): Pending | undefined {
    const pending = this.#pending;
    this.#pending = undefined;
    this.#stopWatch();
    return pending;
  }

  #stopWatch(): void {
    if (this.#watch) clearInterval(this.#watch);
    this.#watch = undefined;
  }
}
