/**
 * What the runner and the automatic trigger need of a compaction without loading it: the
 * compactor and planner (region, plan, prompt, backup) are imported on the first compaction, so
 * a start that never compacts does not evaluate them (startup is measured, see docs/performance.md).
 */
import { ErrorCode, KernelError } from "../../kernel/index.js";
import type { AgentMessage } from "../../lib/llm/index.js";
import { estimateContextTokens, estimateMessageTokens } from "../session/api.js";

export const NOTHING_TO_COMPACT = "Nothing to compact (session too small)";
export const COMPACTION_CANCELLED = "Compaction cancelled";

/** A compaction that could not produce a usable result; the message has no trigger prefix yet. */
export class CompactionFailure extends KernelError {
  /** The text a session_before_compact tap supplied was the problem. */
  readonly fromExtension: boolean;
  constructor(message: string, fromExtension = false) {
    super(ErrorCode.UNAVAILABLE, message);
    this.fromExtension = fromExtension;
  }
}

export function cancelled(): KernelError {
  return new KernelError(ErrorCode.CANCELLED, COMPACTION_CANCELLED);
}

/**
 * Whether anyone tapped `hook`. tapable's `isUsed()` also counts interceptors, and every hook
 * carries the kernel's policy interceptor, so it is always true; the payload here costs a deep
 * copy of the branch.
 */
export function hasTaps(hook: { taps: readonly unknown[] }): boolean {
  return hook.taps.length > 0;
}

/** Tokens the context occupies: the last usage plus what follows, or every message estimated. */
export function contextTokens(messages: readonly AgentMessage[]): number {
  return estimateContextTokens(messages) ?? messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0);
}
