/** The hooks the compaction plugin declares and calls. */
import { AsyncSeriesBailHook, AsyncSeriesHook } from "tapable";
import { guard, notify, type DeclaredHooks } from "../../kernel/index.js";
import type { CompactionEntry, SessionEntry } from "../session/api.js";
import type { CompactionParameters, CompactionPreparation, CompactionReason, CompactionResult } from "./types.js";

export interface CompactVerdict {
  cancel?: boolean;
  /** Supplied text replaces the planner's (rung "extension"). */
  compactedText?: string;
  /**
   * pi's form of the same: `summary` is the compacted text; `firstKeptEntryId` may move the kept
   * tail (an entry of the current branch, or null for none); `details` are stored with the entry.
   */
  compaction?: { summary: string; firstKeptEntryId?: string | null; tokensBefore?: number; details?: unknown };
}

export interface BeforeCompactEvent {
  reason: CompactionReason;
  parameters: CompactionParameters;
  preparation: CompactionPreparation;
  branchEntries: readonly SessionEntry[];
  customInstructions?: string;
  signal: AbortSignal;
}

export interface CompactFailedEvent {
  reason: CompactionReason;
  /** Why it failed; absent when it was cancelled or aborted. */
  errorMessage?: string;
  aborted: boolean;
  /** An overflow compaction: the failed prompt would have been retried after it. */
  willRetry: boolean;
  fromExtension: boolean;
}

export function compactionHookDeclarations() {
  return {
    session_before_compact: guard(
      new AsyncSeriesBailHook<[BeforeCompactEvent], CompactVerdict | undefined>(["event"]),
      () => ({ cancel: true }),
      "A compaction is about to run: a tap may cancel it or supply the compacted text itself.",
    ),
    session_compact_failed: notify(
      new AsyncSeriesHook<[CompactFailedEvent]>(["event"]),
      "A compaction failed or was cancelled (nothing was stored); `fromExtension`: the text a session_before_compact tap supplied was refused.",
    ),
    session_compact: notify(
      new AsyncSeriesHook<[{ reason: CompactionReason; result: CompactionResult; compactionEntry: CompactionEntry; fromExtension: boolean }]>(["event"]),
      "A compaction entry was stored.",
    ),
  };
}

export type CompactionHooks = DeclaredHooks<ReturnType<typeof compactionHookDeclarations>>;
