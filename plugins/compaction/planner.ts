/**
 * Asks the session model for a deletion plan: one request over the numbered region. Transient
 * provider errors are retried with the retry settings (summarization_retry_* events); when the
 * request itself does not fit the window, the oldest lines are withheld (half of what is left
 * each time) and count as deleted. No events of the conversation, no history.
 */
import type { EventMap } from "../../kernel/index.js";
import { cancelled } from "./outcome.js";
import type { AssistantMessage, AssistantStream, Model, ThinkingLevel } from "../../lib/llm/index.js";
import type { CompactionReason } from "./api.js";
import type { CompletionRequest } from "../agent/api.js";
import { normalizeRanges, parsePlan, type LineRange } from "./plan.js";
import { PLANNER_SYSTEM_PROMPT, plannerUserMessage } from "./prompt.js";
import { isContextOverflow, isRetryableError, isSilentOverflow } from "./provider-errors.js";
import type { PlannerRetrySettings } from "./settings.js";

export { cancelled, COMPACTION_CANCELLED } from "./outcome.js";

type RetryEvent = "summarization_retry_scheduled" | "summarization_retry_attempt_start" | "summarization_retry_finished";

export interface PlannerDeps {
  complete(request: CompletionRequest): AssistantStream;
  model: Model;
  thinkingLevel: ThinkingLevel;
  retry: PlannerRetrySettings;
  reason: CompactionReason;
  emit<K extends RetryEvent>(type: K, payload: EventMap[K]): void;
}

export interface PlanRequest {
  lines: readonly string[];
  compressionRatio: number;
  query: string;
  signal: AbortSignal;
}

/** Ranges normalised against all of `lines`, or why no usable plan came back. */
export type PlanOutcome = { ok: true; ranges: LineRange[] } | { ok: false; error: string; invalidPlan: boolean };

/** Plans the deletions; throws `Compaction cancelled` when `signal` aborts. */
export async function planDeletions(deps: PlannerDeps, request: PlanRequest): Promise<PlanOutcome> {
  const retries = new RetryBudget(deps, request.signal);
  try {
    const total = request.lines.length;
    // Lines withheld from the front after the planner request overflowed the window.
    for (let offset = 0; offset < total; offset += Math.max(1, Math.floor((total - offset) / 2))) {
      const view = offset === 0 ? request.lines : request.lines.slice(offset);
      const answer = await retries.call(() => ask(deps, view, request));
      if (answer === "overflow") continue;
      if (answer.stopReason === "error" || answer.stopReason === "aborted") {
        return { ok: false, error: answer.errorMessage ?? "the planner request failed", invalidPlan: false };
      }
      const parsed = parsePlan(textOf(answer), answer.stopReason === "length");
      if (!parsed.ok) return { ok: false, error: `invalid plan (${parsed.reason})`, invalidPlan: true };
      // Clipped to the view it was numbered against, then back in region numbers.
      const ranges = normalizeRanges(parsed.ranges, view.length).map((range) => ({ start: range.start + offset, end: range.end + offset }));
      return { ok: true, ranges: offset > 0 ? normalizeRanges([{ start: 1, end: offset }, ...ranges], total) : ranges };
    }
    return { ok: false, error: "the planner request does not fit the model's context window, even for the newest line", invalidPlan: false };
  } finally {
    retries.finish();
  }
}

/** One planner request; "overflow" when it did not fit the window. */
async function ask(deps: PlannerDeps, lines: readonly string[], request: PlanRequest): Promise<AssistantMessage | "overflow"> {
  const { model, thinkingLevel } = deps;
  const signal = request.signal;
  if (signal.aborted) throw cancelled();
  let final: AssistantMessage | undefined;
  try {
    const stream = deps.complete({
      model,
      systemPrompt: PLANNER_SYSTEM_PROMPT,
      messages: [{ role: "user", content: plannerUserMessage({ lines, compressionRatio: request.compressionRatio, query: request.query }), timestamp: Date.now() }],
      signal,
      // The session's reasoning level: planning is the same kind of judgement as the work.
      thinkingLevel: model.reasoning ? thinkingLevel : "off",
    });
    for await (const event of stream) {
      if (event.type === "done") final = event.message;
      else if (event.type === "error") final = event.error;
    }
  } catch (error) {
    if (signal.aborted) throw cancelled();
    return failed(model, error instanceof Error ? error.message : String(error));
  }
  if (signal.aborted) throw cancelled();
  if (!final) return failed(model, "the planner stream ended without an answer");
  if (final.stopReason === "error" && isContextOverflow(final.errorMessage, model)) return "overflow";
  if (isSilentOverflow(final, model.contextWindow)) return "overflow";
  return final;
}

function failed(model: Model, errorMessage: string): AssistantMessage {
  return {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    stopReason: "error",
    errorMessage,
    timestamp: Date.now(),
  };
}

function textOf(message: AssistantMessage): string {
  let text = "";
  for (const block of message.content) if (block.type === "text") text += block.text;
  return text;
}

type Answer = AssistantMessage | "overflow";

/** Retries of transient errors across one compaction, and their events (docs/protocol.md: summarization_retry_*). */
class RetryBudget {
  readonly #deps: PlannerDeps;
  readonly #signal: AbortSignal;
  #attempt = 0;

  constructor(deps: PlannerDeps, signal: AbortSignal) {
    this.#deps = deps;
    this.#signal = signal;
  }

  async call(ask: () => Promise<Answer>): Promise<Answer> {
    const { retry, reason } = this.#deps;
    for (;;) {
      const answer = await ask();
      const error = answer !== "overflow" && answer.stopReason === "error" ? (answer.errorMessage ?? "") : undefined;
      if (error === undefined || !retry.enabled || !isRetryableError(error) || this.#attempt >= retry.maxRetries) return answer;
      this.#attempt++;
      const delayMs = retry.baseDelayMs * 2 ** (this.#attempt - 1);
      this.#deps.emit("summarization_retry_scheduled", { attempt: this.#attempt, maxAttempts: retry.maxRetries, delayMs, errorMessage: error });
      await this.#sleep(delayMs);
      this.#deps.emit("summarization_retry_attempt_start", { source: "compaction", reason });
    }
  }

  /** Closes a retry loop that started (every way out of the planner, cancellation included). */
  finish(): void {
    if (this.#attempt > 0) this.#deps.emit("summarization_retry_finished", {});
    this.#attempt = 0;
  }

  #sleep(ms: number): Promise<void> {
    const signal = this.#signal;
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(cancelled());
      const onAbort = () => {
        clearTimeout(timer);
        reject(cancelled());
      };
      const timer = setTimeout(() => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }
}
