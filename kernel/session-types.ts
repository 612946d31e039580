/**
 * The session vocabulary shared by the protocol (get_entries, get_tree, compaction results) and
 * the hooks: the entries of the append-only session tree and the compaction payloads. Wire
 * types derive from their zod schemas (kernel/schemas-session.ts).
 */
import type { z } from "zod";
import type * as S from "./schemas-session.js";
import type { AgentMessage } from "./types.js";

type Out<F extends () => z.ZodType> = z.output<ReturnType<F>>;

/** First line of a session file; not part of the tree. */
export type SessionHeader = Out<typeof S.SessionHeaderSchema>;
export type MessageEntry = Out<typeof S.MessageEntrySchema>;
export type ModelChangeEntry = Out<typeof S.ModelChangeEntrySchema>;
export type ThinkingLevelChangeEntry = Out<typeof S.ThinkingLevelChangeEntrySchema>;
/** Messages before `firstKeptEntryId` on the path are replaced by `summary` in the context. */
export type CompactionEntry = Out<typeof S.CompactionEntrySchema>;
export type SessionInfoEntry = Out<typeof S.SessionInfoEntrySchema>;
/** Labels `targetId`; an absent or empty label clears it. */
export type LabelEntry = Out<typeof S.LabelEntrySchema>;
/** Plugin/extension data; never part of the LLM context. */
export type CustomEntry = Out<typeof S.CustomEntrySchema>;
export type SessionEntry = Out<typeof S.SessionEntrySchema>;

export type SessionEntryType = SessionEntry["type"];

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** What callers append: an entry without its tree fields (the tree assigns them). */
export type NewSessionEntry = DistributiveOmit<SessionEntry, "id" | "parentId" | "timestamp">;

/** One stored session as `list_sessions` reports it (pi's SessionInfo, ISO times). */
export type SessionInfo = Out<typeof S.SessionInfoSchema>;

/** Per-call knobs of the verbatim-line compactor (the spec's snake_case names). */
export type CompactionParameters = Out<typeof S.CompactionParametersSchema>;
export type CompactionStats = Out<typeof S.CompactionStatsSchema>;
/** What `compact` answers and `compaction_end.result` carries (spec: compact). */
export type CompactionResult = Out<typeof S.CompactionResultSchema>;

export type CompactionReason = "manual" | "threshold" | "overflow";

/** The `compaction` settings as the compactor applies them (defaults filled in). */
export interface CompactionSettings {
  enabled: boolean;
  /** Automatic compaction starts when the context estimate exceeds contextWindow - reserveTokens. */
  reserveTokens: number;
  preserveRecent: number;
  compressionRatio: number;
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
