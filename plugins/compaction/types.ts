/**
 * The compaction vocabulary: per-call parameters, results, and what `session_before_compact`
 * taps see. Wire types derive from their zod schemas (schemas.ts).
 */
import type { z } from "zod";
import type { AgentMessage } from "../../lib/llm/index.js";
import type * as C from "./schemas.js";

type Out<F extends () => z.ZodType> = z.output<ReturnType<F>>;

/** Per-call knobs of the verbatim-line compactor (the protocol's snake_case names). */
export type CompactionParameters = Out<typeof C.CompactionParametersSchema>;
export type CompactionStats = Out<typeof C.CompactionStatsSchema>;
/** What `compact` answers and `compaction_end.result` carries (docs/protocol.md: compact). */
export type CompactionResult = Out<typeof C.CompactionResultSchema>;

export type CompactionReason = "manual" | "threshold" | "overflow";

/** The `compaction` settings as the compactor applies them (defaults filled in). */
export interface CompactionSettings {
  enabled: boolean;
  /** Automatic compaction starts when the context estimate exceeds contextWindow - reserveTokens. */
  reserveTokens: number;
  preserveRecent: number;
  compressionRatio: number;
  /**
   * pi's rule, when a user sets it: a branch whose newest messages after the oldest one stay
   * under this many tokens has nothing to compact. Unset: only the 20-line region minimum applies.
   */
  keepRecentTokens?: number;
}

/** Files the compacted messages' tool calls touched (pi's `fileOps`, from `path` arguments). */
export interface CompactionFileOps {
  read: Set<string>;
  written: Set<string>;
  edited: Set<string>;
}

/**
 * What the compactor is about to do, as `session_before_compact` taps see it (a frozen copy).
 * The field names are pi's, so a pi extension that writes its own summary (`custom-compaction`)
 * reads the same payload; `transcript`, `lineCount` and `retainedTail` are Atomic's.
 */
export interface CompactionPreparation {
  /** The entry the kept tail starts at; null when nothing is kept (preserve_recent 0). */
  firstKeptEntryId: string | null;
  /** The messages the compaction replaces (the region), oldest first. */
  messagesToSummarize: AgentMessage[];
  /** Always empty: verbatim compaction never splits a turn. */
  turnPrefixMessages: AgentMessage[];
  isSplitTurn: boolean;
  /** The newest `preserve_recent` messages, kept verbatim after the compacted text. */
  retainedTail: AgentMessage[];
  tokensBefore: number;
  /** The previous compaction's text, when this one re-compacts it (it opens the region). */
  previousSummary?: string;
  fileOps: CompactionFileOps;
  settings: CompactionSettings;
  /** The region as the planner would see it, unnumbered (the planner numbers lines from 1). */
  transcript: string;
  lineCount: number;
}
