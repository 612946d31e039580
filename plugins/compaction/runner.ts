/**
 * Runs compactions one at a time with their events: compaction_start, then compaction_end with
 * the result or the error worded for its trigger, and `session_compact` after a commit. Holds
 * the "is compacting" state and cancels the running compaction when the client aborts.
 */
import { ErrorCode, isKernelError, KernelError, type EventMap, type PluginContext } from "../../kernel/index.js";
import type { AgentMessage } from "../../lib/llm/index.js";
import type { CompactionReason, CompactionResult, CompactionSettings } from "./api.js";
import type { AgentApi } from "../agent/api.js";
import type { SessionApi } from "../session/api.js";
import type { CompactOptions } from "./api.js";
import type { CompactionHooks } from "./hooks.js";
import type { CompactorDeps } from "./compactor.js";
import { cancelled, COMPACTION_CANCELLED, CompactionFailure, hasTaps, NOTHING_TO_COMPACT } from "./outcome.js";
import type { PlannerRetrySettings } from "./settings.js";

/** How each trigger words a failure (the protocol's `compact` error is `Compaction failed: <message>`). */
const FAILURE_PREFIX: Record<CompactionReason, string> = {
  manual: "Compaction failed: ",
  threshold: "Auto-compaction failed: ",
  overflow: "Context overflow recovery failed: ",
};

export const UNRESOLVED_OVERFLOW = "Context overflow recovery failed after one compact-and-retry attempt: ";

interface Running {
  controller: AbortController;
  settled: Promise<void>;
  /** Inside a run: the run's own signal stops it. */
  automatic: boolean;
}

interface RunSpec {
  reason: CompactionReason;
  options: CompactOptions;
  /** The run's signal for automatic compactions (an aborted run stops its compaction). */
  signal?: AbortSignal;
  /** Where the rebuilt context goes: the agent when idle, `setContext` at a run edge. */
  apply(messages: AgentMessage[]): void;
  /** Threshold: a region too small to plan is skipped without any event. */
  quietWhenNothing: boolean;
}

export class CompactionRunner {
  readonly #k: PluginContext;
  readonly #hooks: CompactionHooks;
  readonly settings: CompactionSettings;
  readonly #retry: PlannerRetrySettings;
  #running: Running | undefined;
  #manual: Promise<CompactionResult> | undefined;
  #lastAbortSeq = 0;

  constructor(k: PluginContext, hooks: CompactionHooks, settings: CompactionSettings, retry: PlannerRetrySettings) {
    this.#k = k;
    this.#hooks = hooks;
    this.settings = settings;
    this.#retry = retry;
  }

  get #agent(): AgentApi {
    return this.#k.service("agent");
  }

  get #session(): SessionApi {
    return this.#k.service("session");
  }

  isCompacting(): boolean {
    return this.#running !== undefined;
  }

  /**
   * `compact`: stops a streaming run first; `seq` is the command's arrival (an abort read after
   * it cancels it). A call while another manual compaction runs (SDK callers) joins it.
   */
  manual(options: CompactOptions, seq?: number): Promise<CompactionResult> {
    if (seq !== undefined && seq < this.#lastAbortSeq) return Promise.reject(cancelled());
    this.#manual ??= this.#runManual(options).finally(() => (this.#manual = undefined));
    return this.#manual;
  }

  async #runManual(options: CompactOptions): Promise<CompactionResult> {
    const agent = this.#agent;
    if (agent.isStreaming()) {
      await agent.abort();
      await agent.waitForIdle();
    }
    const result = await this.#run({ reason: "manual", options, apply: (messages) => agent.replaceMessages(messages), quietWhenNothing: false });
    // Only a quiet (threshold) run may end without a result and without an error.
    if (!result) throw new KernelError(ErrorCode.INTERNAL, "compaction ended without a result");
    return result;
  }

  /** At a run edge: resolves the result, or undefined when nothing was written (events say why). */
  async automatic(reason: "threshold" | "overflow", signal: AbortSignal, setContext: (messages: AgentMessage[]) => void): Promise<CompactionResult | undefined> {
    try {
      return await this.#run({ reason, options: {}, signal, apply: setContext, quietWhenNothing: reason === "threshold" });
    } catch {
      return undefined;
    }
  }

  /** A second overflow after the one compact-and-retry: reported, nothing compacted. */
  reportUnresolved(errorMessage: string): void {
    this.#emit("compaction_start", { reason: "overflow" });
    this.#emit("compaction_end", {
      reason: "overflow",
      result: null,
      aborted: false,
      willRetry: false,
      errorMessage: UNRESOLVED_OVERFLOW + errorMessage,
      unresolvedOverflow: true,
    });
  }

  /** The client's `abort`: the running compaction ends (its compaction_end and, for `compact`, its response first). */
  async abort(seq: number): Promise<void> {
    this.#lastAbortSeq = Math.max(this.#lastAbortSeq, seq);
    const running = this.#running;
    // An automatic compaction stops with its run, which the agent aborts right after this hook:
    // stopping it here first would let the run go on to its LLM call before its signal fires.
    if (!running || running.automatic) return;
    running.controller.abort();
    await running.settled;
    // The `compact` response is written when its rejection has travelled up (microtasks):
    // only then may the abort's own response follow.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }

  async #run(spec: RunSpec): Promise<CompactionResult | undefined> {
    const { reason } = spec;
    const controller = new AbortController();
    const signal = spec.signal ? AbortSignal.any([spec.signal, controller.signal]) : controller.signal;
    let settle!: () => void;
    this.#running = { controller, settled: new Promise<void>((resolve) => (settle = resolve)), automatic: spec.signal !== undefined };
    let started = false;
    const start = () => {
      if (!started) this.#emit("compaction_start", { reason });
      started = true;
    };
    if (!spec.quietWhenNothing) start();
    try {
      const settings = this.settings;
      const deps: CompactorDeps = {
        agent: this.#agent,
        session: this.#session,
        hooks: this.#hooks,
        settings,
        retry: this.#retry,
        emit: (type, payload) => this.#emit(type, payload),
      };
      // Loaded on the first compaction: a start that never compacts does not evaluate it.
      const { runCompaction } = await import("./compactor.js");
      const committed = await runCompaction(deps, {
        reason,
        preserveRecent: spec.options.preserveRecent ?? settings.preserveRecent,
        compressionRatio: spec.options.compressionRatio ?? settings.compressionRatio,
        ...(spec.options.query !== undefined ? { query: spec.options.query } : {}),
        ...(spec.options.customInstructions !== undefined ? { customInstructions: spec.options.customInstructions } : {}),
        signal,
        loadBearing: reason === "overflow",
        onReady: start,
      });
      spec.apply(this.#session.context().messages);
      const notify = this.#hooks.session_compact;
      if (hasTaps(notify)) await notify.promise({ reason, result: committed.result, compactionEntry: committed.entry, fromExtension: committed.fromExtension });
      this.#emit("compaction_end", { reason, result: committed.result, aborted: false, willRetry: reason === "overflow" });
      return committed.result;
    } catch (error) {
      if (!started && isNothingToCompact(error)) return undefined;
      start();
      const aborted = isKernelError(error) && error.code === ErrorCode.CANCELLED;
      const message = aborted ? COMPACTION_CANCELLED : wording(reason, error);
      this.#emit("compaction_end", { reason, result: null, aborted, willRetry: false, ...(aborted ? {} : { errorMessage: message }) });
      const failed = this.#hooks.session_compact_failed;
      if (hasTaps(failed)) {
        const fromExtension = error instanceof CompactionFailure && error.fromExtension;
        await failed.promise({ reason, ...(aborted ? {} : { errorMessage: message }), aborted, willRetry: reason === "overflow", fromExtension });
      }
      throw new KernelError(aborted ? ErrorCode.CANCELLED : isNothingToCompact(error) ? ErrorCode.CONFLICT : ErrorCode.UNAVAILABLE, message);
    } finally {
      this.#running = undefined;
      settle();
    }
  }

  #emit<K extends keyof EventMap & string>(type: K, payload: EventMap[K]): void {
    this.#k.events.emit(type, payload);
  }
}

function isNothingToCompact(error: unknown): boolean {
  return isKernelError(error) && error.message === NOTHING_TO_COMPACT;
}

function wording(reason: CompactionReason, error: unknown): string {
  if (isNothingToCompact(error)) return NOTHING_TO_COMPACT;
  return FAILURE_PREFIX[reason] + (error instanceof Error ? error.message : String(error));
}
