/**
 * The sandbox workers of this process: at most `MAX_WORKERS` alive across every session (a
 * terminated one holds its place until it has really exited), one kept idle for the next script
 * (a warm worker skips thread start and module load). Scripts that find no worker wait in
 * arrival order. The QuickJS wasm is compiled once, on the first script.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Worker } from "node:worker_threads";
import { startModuleWorker } from "../../../lib/worker/index.js";
import type { WorkerSetup } from "./protocol.js";

/** Two: one running script, and one replacing a cancelled worker that is still exiting. */
export const MAX_WORKERS = 2;

export interface PooledWorker {
  readonly worker: Worker;
  /** Int32 slot 0: the VM's interrupt flag. */
  readonly interrupt: Int32Array;
  /** Resolves once the thread has exited. */
  readonly exited: Promise<void>;
}

let wasm: Promise<WebAssembly.Module> | undefined;

function quickjsWasm(): Promise<WebAssembly.Module> {
  wasm ??= (async () => {
    const path = createRequire(import.meta.url).resolve("quickjs-wasi/quickjs.wasm");
    return WebAssembly.compile(await readFile(path));
  })();
  wasm.catch(() => (wasm = undefined));
  return wasm;
}

export class WorkerPool {
  #alive = 0;
  #idle: PooledWorker | undefined;
  readonly #waiting: { grant: (worker: PooledWorker) => void; fail: (error: Error) => void }[] = [];
  readonly #all = new Set<PooledWorker>();
  #closed = false;

  /** A worker for one script; rejects when `signal` aborts or `waitMs` passes first. */
  async acquire(signal: AbortSignal, waitMs: number): Promise<PooledWorker> {
    const module = await quickjsWasm();
    if (this.#closed) throw new Error("The codemode sandbox is shut down");
    const idle = this.#idle;
    if (idle) {
      this.#idle = undefined;
      return idle;
    }
    if (this.#alive < MAX_WORKERS) return this.#spawn(module);
    return new Promise<PooledWorker>((resolve, reject) => {
      const entry = {
        grant: (worker: PooledWorker) => {
          done();
          resolve(worker);
        },
        fail: (error: Error) => {
          done();
          reject(error);
        },
      };
      const onAbort = () => entry.fail(new WaitError("aborted"));
      const timer = setTimeout(() => entry.fail(new WaitError("timeout")), waitMs);
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        const at = this.#waiting.indexOf(entry);
        if (at >= 0) this.#waiting.splice(at, 1);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(entry);
    });
  }

  /** Starts a worker ahead of the first script (kept idle), unless one is alive already. */
  async prewarm(): Promise<void> {
    const module = await quickjsWasm();
    if (this.#closed || this.#alive > 0 || this.#waiting.length > 0) return;
    this.#idle = this.#spawn(module);
  }

  /** A worker whose script ended cleanly: the next waiting script takes it, else it is kept idle (one at most). */
  giveBack(worker: PooledWorker): void {
    const next = this.#waiting[0];
    if (next) return next.grant(worker);
    if (this.#idle || this.#closed) return this.discard(worker);
    this.#idle = worker;
  }

  /** Stops a worker (a runaway, aborted or broken script): its VM is interrupted, the thread terminated. */
  discard(worker: PooledWorker): void {
    Atomics.store(worker.interrupt, 0, 1);
    void worker.worker.terminate();
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const waiter of [...this.#waiting]) waiter.fail(new Error("The codemode sandbox is shut down"));
    const all = [...this.#all];
    for (const worker of all) this.discard(worker);
    await Promise.all(all.map((worker) => worker.exited));
  }

  #spawn(module: WebAssembly.Module): PooledWorker {
    const interrupt = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
    const setup: WorkerSetup = { wasm: module, interrupt };
    // The VM's memory is wasm memory, limited by the VM itself; the thread's own heap holds only messages.
    const worker = startModuleWorker(new URL("./worker.js", import.meta.url), { workerData: setup, resourceLimits: { maxOldGenerationSizeMb: 256 } });
    worker.unref();
    this.#alive++;
    const pooled: PooledWorker = {
      worker,
      interrupt: new Int32Array(interrupt),
      exited: new Promise<void>((resolve) =>
        worker.once("exit", () => {
          this.#alive--;
          this.#all.delete(pooled);
          if (this.#idle === pooled) this.#idle = undefined;
          resolve();
          this.#admit();
        }),
      ),
    };
    // An idle worker that fails is simply gone (its exit frees the place).
    worker.on("error", () => undefined);
    this.#all.add(pooled);
    return pooled;
  }

  #admit(): void {
    const next = this.#waiting[0];
    if (!next || this.#closed || this.#alive >= MAX_WORKERS) return;
    void quickjsWasm().then((module) => {
      if (this.#waiting[0] === next && this.#alive < MAX_WORKERS) next.grant(this.#spawn(module));
    });
  }
}

/** Why a script got no worker. */
export class WaitError extends Error {
  constructor(readonly reason: "aborted" | "timeout") {
    super(reason === "aborted" ? "aborted while waiting for a codemode worker" : "no codemode worker became free in time");
  }
}
