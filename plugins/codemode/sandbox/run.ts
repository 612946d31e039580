/**
 * Runs one script in a pooled worker and collects what it produced: output items in order, the
 * returned value and store writes (success), or a `ScriptError` (the script threw, the deadline
 * passed, the signal aborted, the sandbox broke). The script's calls are answered through
 * `onCall`, at most `maxInFlight` at once (the rest wait in call order), at most `maxCalls` in
 * all; calls still running when the script ends are aborted.
 */
import { WaitError, type PooledWorker, type WorkerPool } from "./pool.js";
import { LIMITS, type OutputItem, type ScriptError, type WorkerToHost } from "./protocol.js";

export interface SandboxCall {
  target: "tool" | "global";
  name: string;
  /** The parsed argument (globals: the argument list). */
  args: unknown;
  signal: AbortSignal;
}

export interface RunOptions {
  code: string;
  tools: { name: string; jsName: string; description: string }[];
  globals: string[];
  /** key -> JSON text. */
  store: Record<string, string>;
  /** Deadline for everything, the wait for a worker included. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Longest wait for a worker when no deadline is shorter. */
  workerWaitMs: number;
  maxInFlight: number;
  maxCalls: number;
  memoryLimitBytes?: number;
  /** Resolves with the call's value (JSON-able) or rejects with the error the script gets. */
  onCall(call: SandboxCall): Promise<unknown>;
}

export interface StoreWrites {
  set: Record<string, unknown>;
  delete: string[];
}

export type RunOutcome = { output: OutputItem[]; started: boolean } & ({ ok: true; value: unknown; writes: StoreWrites } | { ok: false; error: ScriptError });

export async function runScript(pool: WorkerPool, options: RunOptions): Promise<RunOutcome> {
  const output: OutputItem[] = [];
  const local = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, local.signal]) : local.signal;
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  if (options.timeoutMs !== undefined) {
    timer = setTimeout(() => {
      timedOut = true;
      local.abort();
    }, options.timeoutMs);
  }
  let worker: PooledWorker;
  try {
    worker = await pool.acquire(signal, Math.min(options.workerWaitMs, options.timeoutMs ?? Number.POSITIVE_INFINITY));
  } catch (error) {
    clearTimeout(timer);
    const reason = error instanceof WaitError ? error.reason : "sandbox";
    const message =
      reason === "timeout" && (timedOut || options.timeoutMs !== undefined)
        ? `Execution timed out after ${options.timeoutMs} ms while waiting for a free codemode worker`
        : reason === "timeout"
          ? `No codemode worker became free within ${Math.round(options.workerWaitMs / 1000)} seconds: every worker of this process is held by another script. Retry after they finish.`
          : reason === "aborted"
            ? abortMessage(options.signal)
            : (error as Error).message;
    const kind = reason === "aborted" ? "aborted" : reason === "timeout" && options.timeoutMs !== undefined ? "timeout" : "sandbox";
    return { ok: false, output, started: false, error: { kind, message } };
  }
  return new Promise<RunOutcome>((resolve) => {
    const calls = new Map<number, AbortController>();
    const queue: (() => void)[] = [];
    let inFlight = 0;
    let callCount = 0;
    let settled = false;

    const finish = (outcome: { ok: true; value: unknown; writes: StoreWrites } | { ok: false; error: ScriptError }, clean: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onSignal);
      local.signal.removeEventListener("abort", onSignal);
      worker.worker.off("message", onMessage);
      worker.worker.off("exit", onExit);
      worker.worker.off("error", onError);
      queue.length = 0;
      for (const call of calls.values()) call.abort(new Error("The script ended"));
      if (clean) {
        worker.worker.postMessage({ type: "release" });
        const back = (message: WorkerToHost) => {
          if (message.type !== "idle") return;
          worker.worker.off("message", back);
          pool.giveBack(worker);
        };
        worker.worker.on("message", back);
      } else pool.discard(worker);
      resolve({ ...outcome, output, started: true });
    };

    const answer = (id: number, ok: boolean, payload: string | undefined) => {
      if (!settled) worker.worker.postMessage({ type: "settle", id, ok, ...(payload === undefined ? {} : { payload }) });
    };

    const perform = (id: number, target: "tool" | "global", name: string, args: unknown) => {
      const controller = new AbortController();
      calls.set(id, controller);
      inFlight++;
      void options
        .onCall({ target, name, args, signal: controller.signal })
        .then(
          (value) => {
            let json: string | undefined;
            try {
              json = value === undefined ? undefined : JSON.stringify(value);
            } catch (error) {
              return answer(id, false, `The result of ${name} could not be passed to the script: ${(error as Error).message}`);
            }
            answer(id, true, json);
          },
          (error: unknown) => answer(id, false, error instanceof Error ? error.message : String(error)),
        )
        .finally(() => {
          calls.delete(id);
          inFlight--;
          queue.shift()?.();
        });
    };

    const onMessage = (message: WorkerToHost) => {
      if (settled) return;
      switch (message.type) {
        case "output":
          output.push(message.item);
          return;
        case "call": {
          if (++callCount > options.maxCalls) {
            const text = `the script made more than ${options.maxCalls} tool and helper calls. Batch the work into fewer calls, or split it across several scripts.`;
            return finish({ ok: false, error: { kind: "script", name: "RangeError", message: text, stack: `RangeError: ${text}` } }, false);
          }
          let args: unknown;
          try {
            args = message.args === undefined ? undefined : JSON.parse(message.args);
          } catch {
            return answer(message.id, false, "The call's arguments are not valid JSON");
          }
          const go = () => perform(message.id, message.target, message.name, args);
          if (inFlight < options.maxInFlight) go();
          else queue.push(go);
          return;
        }
        case "done":
          if (!message.ok) return finish({ ok: false, error: scriptError(message.error) }, true);
          return finish(success(message.value, message.writes), true);
        case "crash":
          return finish({ ok: false, error: { kind: "sandbox", message: message.message } }, false);
      }
    };
    const onSignal = () =>
      finish(
        {
          ok: false,
          error: timedOut ? { kind: "timeout", message: `Execution timed out after ${options.timeoutMs} ms` } : { kind: "aborted", message: abortMessage(options.signal) },
        },
        false,
      );
    const onExit = () => finish({ ok: false, error: { kind: "sandbox", message: "The codemode worker stopped unexpectedly" } }, false);
    const onError = (error: Error) => finish({ ok: false, error: { kind: "sandbox", message: `${error.name}: ${error.message}` } }, false);

    worker.worker.on("message", onMessage);
    worker.worker.once("exit", onExit);
    worker.worker.once("error", onError);
    if (signal.aborted) return onSignal();
    options.signal?.addEventListener("abort", onSignal, { once: true });
    local.signal.addEventListener("abort", onSignal, { once: true });
    worker.worker.postMessage({
      type: "run",
      code: options.code,
      tools: options.tools,
      globals: options.globals,
      store: options.store,
      memoryLimitBytes: options.memoryLimitBytes ?? LIMITS.memoryBytes,
    });
  });
}

function abortMessage(signal: AbortSignal | undefined): string {
  const reason: unknown = signal?.reason;
  return reason instanceof Error && reason.name !== "AbortError" ? reason.message : "Execution aborted";
}

/** The prelude's error JSON; anything else is a broken bridge. */
function scriptError(json: string): ScriptError {
  try {
    const parsed = JSON.parse(json) as { name?: unknown; message?: unknown; stack?: unknown };
    if (typeof parsed.message === "string") {
      return {
        kind: "script",
        message: parsed.message,
        ...(typeof parsed.name === "string" ? { name: parsed.name } : {}),
        ...(typeof parsed.stack === "string" ? { stack: parsed.stack } : {}),
      };
    }
  } catch {
    // Falls through to the bridge error.
  }
  return { kind: "sandbox", message: "Sandbox bridge broken: the script's error could not be read" };
}

function success(value: string | undefined, writes: string): { ok: true; value: unknown; writes: StoreWrites } | { ok: false; error: ScriptError } {
  try {
    const parsed = value === undefined ? undefined : JSON.parse(value);
    const entries = JSON.parse(writes) as ([string] | [string, string])[];
    const set: Record<string, unknown> = {};
    const deleted: string[] = [];
    for (const entry of entries) {
      if (entry.length === 1) {
        deleted.push(entry[0]);
        delete set[entry[0]];
      } else {
        set[entry[0]] = JSON.parse(entry[1]);
        const at = deleted.indexOf(entry[0]);
        if (at >= 0) deleted.splice(at, 1);
      }
    }
    return { ok: true, value: parsed, writes: { set, delete: deleted } };
  } catch {
    return { ok: false, error: { kind: "sandbox", message: "Sandbox bridge broken: the script's result could not be read" } };
  }
}
