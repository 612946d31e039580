/**
 * A sandbox worker: runs codemode scripts, one at a time, each in a fresh QuickJS VM (a wasm
 * instance of its own, with a heap limit and QuickJS's stack guard). The VM's only way out is
 * the prelude's bridge, relayed to the host as messages; its WASI output is discarded. The host
 * stops a runaway script by setting the interrupt slot (QuickJS polls it) and terminating this
 * thread, so the agent's own event loop never waits on a script.
 */
import { parentPort, workerData } from "node:worker_threads";
import { JSException, MAX_STACK_SIZE, QuickJS, type JSValueHandle } from "quickjs-wasi";
import { PRELUDE_FILE, PRELUDE_SOURCE, SCRIPT_FILE, wrapScript } from "./prelude.js";
import { LIMITS, type HostToWorker, type RunRequest, type WorkerSetup, type WorkerToHost } from "./protocol.js";

const setup = workerData as WorkerSetup;
const interrupt = new Int32Array(setup.interrupt);
const port = parentPort!;
const post = (message: WorkerToHost) => port.postMessage(message);

/** Promise jobs run between two checks of the interrupt slot (`while (true) await null` is all jobs). */
const JOBS_PER_CHECK = 64;

/** Engine output (fd 1 and 2) is dropped, reported as written so libc does not retry. */
function discardOutput(memory: WebAssembly.Memory) {
  return {
    fd_write(_fd: number, iovs: number, count: number, written: number): number {
      const view = new DataView(memory.buffer);
      let total = 0;
      for (let i = 0; i < count; i++) total += view.getUint32(iovs + i * 8 + 4, true);
      view.setUint32(written, total, true);
      return 0;
    },
  };
}

interface Script {
  vm: QuickJS;
  settle: JSValueHandle;
  stalled: JSValueHandle;
  api: JSValueHandle;
}

let current: Script | undefined;

function interrupted(): boolean {
  return Atomics.load(interrupt, 0) !== 0;
}

/** Runs queued promise jobs, checking the interrupt slot, then fails a script nothing can wake. */
function drain(script: Script): void {
  const exports = (script.vm as unknown as { _getExports(): { qjs_is_job_pending(): number; qjs_execute_pending_job(): number } })._getExports();
  let jobs = 0;
  while (exports.qjs_is_job_pending()) {
    if (exports.qjs_execute_pending_job() < 0) throw new Error("Promise job failed");
    if (++jobs % JOBS_PER_CHECK === 0 && interrupted()) throw new Error("Execution interrupted");
  }
  script.vm.callFunction(script.stalled, script.api).dispose();
}

function describeException(error: JSException): string {
  const head = error.message ? `${error.name}: ${error.message}` : error.name;
  const stack = error.stack?.trimEnd();
  return JSON.stringify({ name: error.name, message: error.message, stack: stack ? `${head}\n${stack}` : head });
}

async function start(request: RunRequest): Promise<void> {
  const vm = await QuickJS.create({
    wasm: setup.wasm,
    memoryLimit: request.memoryLimitBytes,
    // QuickJS's stack guard: deep recursion throws a catchable RangeError instead of trapping the wasm.
    maxStackSize: MAX_STACK_SIZE,
    interruptHandler: interrupted,
    wasi: discardOutput,
  });
  const bridge = vm.newFunction("bridge", (kind, a, b, c) => {
    const name = kind!.toString();
    if (name === "call" || name === "global") {
      post({
        type: "call",
        id: a!.toNumber(),
        target: name === "call" ? "tool" : "global",
        name: b!.toString(),
        ...(c === undefined || c.isUndefined ? {} : { args: c.toString() }),
      });
    } else if (name === "output") {
      const what = a!.toString();
      post({
        type: "output",
        item:
          what === "image"
            ? { type: "image", data: b!.toString(), mimeType: c!.toString() }
            : { type: "text", text: b!.toString(), ...(what === "console" ? { console: true } : {}) },
      });
    } else if (name === "done") {
      if (a!.toBoolean()) post({ type: "done", ok: true, ...(b === undefined || b.isUndefined ? {} : { value: b.toString() }), writes: c!.toString() });
      else post({ type: "done", ok: false, error: b!.toString() });
    }
    return vm.undefined;
  });
  const limits = { outputChars: LIMITS.outputChars, outputItems: LIMITS.outputItems, storeValueChars: LIMITS.storeValueChars, storeTotalChars: LIMITS.storeTotalChars };
  const factory = vm.evalCode(PRELUDE_SOURCE, PRELUDE_FILE);
  const api = vm.callFunction(
    factory,
    vm.undefined,
    bridge,
    vm.newString(JSON.stringify(request.tools)),
    vm.newString(JSON.stringify(request.globals)),
    vm.newString(JSON.stringify(request.store)),
    vm.newString(JSON.stringify(limits)),
  );
  const script: Script = { vm, api, settle: api.getProp("settle"), stalled: api.getProp("stalled") };
  current = script;
  let fn: JSValueHandle;
  try {
    fn = vm.evalCode(wrapScript(request.code), SCRIPT_FILE);
  } catch (error) {
    if (!(error instanceof JSException)) throw error;
    post({ type: "done", ok: false, error: describeException(error) });
    return;
  }
  const run = api.getProp("run");
  vm.callFunction(run, api, fn).dispose();
  drain(script);
}

function settle(id: number, ok: boolean, payload: string | undefined): void {
  const script = current;
  if (!script) return;
  const { vm } = script;
  const result = vm.callFunction(script.settle, script.api, vm.newNumber(id), ok ? vm.true : vm.false, payload === undefined ? vm.undefined : vm.newString(payload));
  result.dispose();
  drain(script);
}

/** The script is over (the host said so): its VM goes, the worker waits for the next one. */
function release(): void {
  const script = current;
  current = undefined;
  script?.vm.dispose();
  post({ type: "idle" });
}

port.on("message", (message: HostToWorker) => {
  const fail = (error: unknown) => post({ type: "crash", message: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
  try {
    if (message.type === "run") start(message).catch(fail);
    else if (message.type === "settle") settle(message.id, message.ok, message.payload);
    else if (message.type === "release") release();
  } catch (error) {
    fail(error);
  }
});
