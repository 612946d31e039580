/**
 * One prompt's chain of automatic retries: decides at each run end whether a failed assistant
 * turn is retried, waits out the backoff (abortable), and closes every started chain with
 * exactly one `auto_retry_end`. No I/O of its own: events go out through `emit`.
 */
import type { AgentMessage, AssistantMessage, Model } from "../../lib/llm/index.js";
import type { EventMap } from "../../kernel/index.js";
import { isContextOverflow, isRetryableError, requestedRetryDelayMs } from "../../lib/provider-kit/index.js";

export interface RetrySettings {
  enabled: boolean;
  /** Retries after the first failure (not counting it). */
  maxRetries: number;
  baseDelayMs: number;
  /** A server asking for a longer wait than this fails at once instead (pi's default: 60 s). */
  maxRetryDelayMs: number;
}

export const RETRY_DEFAULTS: RetrySettings = { enabled: true, maxRetries: 3, baseDelayMs: 2000, maxRetryDelayMs: 60_000 };
export const RETRY_CANCELLED = "Retry cancelled";

/** Exponential backoff: base, 2·base, 4·base, ... for attempts 1, 2, 3, ... */
export function retryDelayMs(baseDelayMs: number, attempt: number): number {
  return baseDelayMs * 2 ** (attempt - 1);
}

export interface RetryChainDeps {
  emit<K extends "auto_retry_start" | "auto_retry_end">(type: K, payload: EventMap[K]): void;
  /** Drops the failed turn from the live context (the session file keeps it). */
  removeMessage(message: AgentMessage): void;
}

interface Delay {
  controller: AbortController;
  /** Resolves once the delay is over and its outcome (continue or auto_retry_end) is decided. */
  settled: Promise<void>;
}

export class RetryChain {
  readonly settings: RetrySettings;
  readonly #deps: RetryChainDeps;
  /** Retries started in the current chain; 0 = no chain. */
  #attempt = 0;
  /** abort_retry arrived while a retried call was in flight: stop at its outcome. */
  #stopRequested = false;
  #delay: Delay | undefined;

  constructor(settings: RetrySettings, deps: RetryChainDeps) {
    this.settings = { ...settings };
    this.#deps = deps;
  }

  get attempt(): number {
    return this.#attempt;
  }

  get isWaiting(): boolean {
    return this.#delay !== undefined;
  }

  /** A new prompt: any stale chain (a run that crashed) is forgotten. */
  reset(): void {
    this.#attempt = 0;
    this.#stopRequested = false;
  }

  /** An assistant message ended. A good answer closes the chain as a success; an aborted one as cancelled. */
  onAssistantEnd(message: AssistantMessage): void {
    if (this.#attempt === 0 || message.stopReason === "error") return; // errors are decided at run end
    if (message.stopReason === "aborted") this.#end({ success: false, finalError: RETRY_CANCELLED });
    else this.#end({ success: true });
  }

  /** A run ended. Resolves `true` when the agent should continue (after the backoff). */
  async onRunEnd(last: AssistantMessage | undefined, signal: AbortSignal, model?: Model): Promise<boolean> {
    if (last?.stopReason !== "error") return false;
    const error = last.errorMessage ?? "Unknown error";
    // The server's own delay (retry-after, RetryInfo) is a floor; one beyond the cap is a refusal.
    const requested = requestedRetryDelayMs(error);
    const tooLong = requested !== undefined && requested > this.settings.maxRetryDelayMs;
    const retryable = this.settings.enabled && !tooLong && isRetryableError(error, model) && !isContextOverflow(error, model);
    if (this.#stopRequested) {
      this.#end({ success: false, finalError: RETRY_CANCELLED });
      return false;
    }
    if (!retryable || this.#attempt >= this.settings.maxRetries) {
      if (this.#attempt > 0) this.#end({ success: false, finalError: error });
      return false;
    }

    this.#attempt++;
    const delayMs = Math.max(retryDelayMs(this.settings.baseDelayMs, this.#attempt), requested ?? 0);
    this.#deps.emit("auto_retry_start", { attempt: this.#attempt, maxAttempts: this.settings.maxRetries, delayMs, errorMessage: error });
    this.#deps.removeMessage(last);

    const controller = new AbortController();
    let settle!: () => void;
    this.#delay = { controller, settled: new Promise<void>((resolve) => (settle = resolve)) };
    try {
      const completed = await sleep(delayMs, AbortSignal.any([signal, controller.signal]));
      if (!completed) this.#end({ success: false, finalError: RETRY_CANCELLED });
      return completed;
    } finally {
      this.#delay = undefined;
      settle();
    }
  }

  /**
   * `abort_retry`: cancels a running delay (resolving after its auto_retry_end), or makes a
   * retried call that is in flight the chain's last one. Nothing retrying: a no-op.
   */
  async cancel(): Promise<void> {
    const delay = this.#delay;
    if (delay) {
      delay.controller.abort();
      await delay.settled;
      return;
    }
    if (this.#attempt > 0) this.#stopRequested = true;
  }

  #end(outcome: { success: true } | { success: false; finalError: string }): void {
    const attempt = this.#attempt;
    this.reset();
    this.#deps.emit("auto_retry_end", outcome.success ? { success: true, attempt } : { success: false, attempt, finalError: outcome.finalError });
  }
}

/** Resolves `true` after `ms`, or `false` as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
