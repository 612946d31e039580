/**
 * A worker thread doing one job at a time under a watchdog. The worker stamps progress into
 * shared memory (a heartbeat per unit of work, plus slots of its own); when the heartbeat stands
 * still for `deadlineMs` while a job runs, or the job's signal aborts, the worker is terminated
 * (V8 interrupts even a running regex or a deep recursion) and the job rejects. The main
 * thread's event loop is never blocked by what the worker does, and an idle worker never keeps
 * the process alive, so one can be kept for the next job.
 */
import type { Worker } from "node:worker_threads";
import { startModuleWorker } from "./start.js";

/** Slot 0: heartbeat; slot 1: 1 once the worker's module is loaded; from 2: the worker's own. */
export const BEAT_SLOT = 0;
export const READY_SLOT = 1;
export const FIRST_USER_SLOT = 2;
const WATCH_INTERVAL_MS = 100;

/** The heartbeat stood still for the deadline; `progress` is a copy of the slots at that moment. */
export class WorkerStalledError extends Error {
  constructor(
    readonly progress: Int32Array,
    deadlineMs: number,
  ) {
    super(`The worker made no progress for ${deadlineMs} ms`);
    this.name = "WorkerStalledError";
  }
}

export interface WatchedWorkerOptions {
  /** Longest pause of the heartbeat during a job. */
  deadlineMs: number;
  /** Total slots, FIRST_USER_SLOT and up being the worker's own. */
  slots: number;
  /** Passed to the worker with `progress` (the SharedArrayBuffer) added. */
  workerData?: Record<string, unknown>;
  /** The error an aborted job rejects with. */
  abortError?: () => Error;
}

export class WatchedWorker<Job, Result> {
  readonly #worker: Worker;
  readonly #progress: Int32Array;
  readonly #options: WatchedWorkerOptions;
  readonly #onAbort = () => this.#fail(this.#options.abortError?.() ?? new Error("Aborted"));
  #pending: { resolve: (result: Result) => void; reject: (error: Error) => void; signal: AbortSignal | undefined } | undefined;
  #failure: Error | undefined;
  #watch: NodeJS.Timeout | undefined;
  #lastBeat = 0;
  #lastChange = 0;

  /** `moduleUrl` as `new URL("./x.js", import.meta.url)` (see startModuleWorker). */
  constructor(moduleUrl: URL, options: WatchedWorkerOptions) {
    this.#options = options;
    const shared = new SharedArrayBuffer(options.slots * Int32Array.BYTES_PER_ELEMENT);
    this.#progress = new Int32Array(shared);
    this.#worker = startModuleWorker(moduleUrl, { workerData: { ...options.workerData, progress: shared } });
    this.#worker.on("message", (result: Result) => this.#take()?.resolve(result));
    this.#worker.on("error", (error) => this.#fail(error));
    this.#worker.on("exit", () => this.#fail(new Error("The worker stopped unexpectedly")));
    this.#worker.unref();
  }

  /** Whether the worker can take jobs (not stalled, crashed, aborted or closed). */
  get usable(): boolean {
    return this.#failure === undefined;
  }

  /**
   * Runs one job; `signal` aborting terminates the worker and rejects. A second job before the
   * first settles is a programming error.
   */
  run(job: Job, signal?: AbortSignal): Promise<Result> {
    if (this.#failure) return Promise.reject(this.#failure);
    if (this.#pending) return Promise.reject(new Error("WatchedWorker.run: a job is already running"));
    return new Promise<Result>((resolve, reject) => {
      this.#pending = { resolve, reject, signal };
      this.#lastBeat = Atomics.load(this.#progress, BEAT_SLOT);
      this.#lastChange = performance.now();
      this.#watch = setInterval(() => this.#check(), WATCH_INTERVAL_MS);
      this.#worker.ref();
      this.#worker.postMessage(job);
      signal?.addEventListener("abort", this.#onAbort, { once: true });
      if (signal?.aborted) this.#onAbort();
    });
  }

  /** Stops the worker; safe to call more than once. */
  async close(): Promise<void> {
    this.#failure ??= new Error("The worker is closed");
    this.#take()?.reject(this.#failure);
    await this.#worker.terminate();
  }

  #check(): void {
    const now = performance.now();
    const beat = Atomics.load(this.#progress, BEAT_SLOT);
    // Time spent loading the worker's module never counts against the job.
    if (beat !== this.#lastBeat || Atomics.load(this.#progress, READY_SLOT) === 0) {
      this.#lastBeat = beat;
      this.#lastChange = now;
      return;
    }
    if (now - this.#lastChange >= this.#options.deadlineMs) this.#fail(new WorkerStalledError(this.#progress.slice(), this.#options.deadlineMs));
  }

  #fail(error: Error): void {
    if (this.#failure) return;
    this.#failure = error;
    void this.#worker.terminate();
    this.#take()?.reject(error);
  }

  /** The running job, now finished: no more watching, and the idle worker lets the process exit. */
  #take() {
    const pending = this.#pending;
    this.#pending = undefined;
    this.#stopWatch();
    pending?.signal?.removeEventListener("abort", this.#onAbort);
    if (!this.#failure) this.#worker.unref();
    return pending;
  }

  #stopWatch(): void {
    if (this.#watch) clearInterval(this.#watch);
    this.#watch = undefined;
  }
}

/** The worker's side: stamps progress into the shared slots it was given. */
export class WorkerProgress {
  readonly #slots: Int32Array;
  constructor(workerData: unknown) {
    this.#slots = new Int32Array((workerData as { progress: SharedArrayBuffer }).progress);
  }
  /** Call before each unit of work (a line, a message). */
  beat(): void {
    Atomics.add(this.#slots, BEAT_SLOT, 1);
  }
  set(slot: number, value: number): void {
    Atomics.store(this.#slots, slot, value);
  }
  /** Call once the worker's module is loaded and listening. */
  ready(): void {
    Atomics.store(this.#slots, READY_SLOT, 1);
  }
}
