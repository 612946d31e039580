/**
 * The session vocabulary shared by the protocol (get_entries, get_tree, compaction results) and
 * the hooks: the entries of the append-only session tree and the compaction payloads. Pure types.
 */
import type { AgentMessage, ThinkingLevel } from "./types.js";

/** First line of a session file; not part of the tree. */
export interface SessionHeader {
  type: "session";
  version: 1;
  /** uuid */
  id: string;
  /** ISO creation time */
  timestamp: string;
  cwd: string;
  /** File of the session this one was forked/cloned/started from. */
  parentSession?: string;
}

interface EntryBase {
  /** 8 hex chars, unique within the session. */
  id: string;
  parentId: string | null;
  /** ISO time of the append. */
  timestamp: string;
}

export interface MessageEntry extends EntryBase {
  type: "message";
  message: AgentMessage;
}

export interface ModelChangeEntry extends EntryBase {
  type: "model_change";
  provider: string;
  modelId: string;
}

export interface ThinkingLevelChangeEntry extends EntryBase {
  type: "thinking_level_change";
  thinkingLevel: ThinkingLevel;
}

/**
 * Messages before `firstKeptEntryId` on the path are replaced by `summary` in the context. With
 * `details.strategy: "verbatim-lines"` the summary is the compacted transcript and the kept tail
 * (from `firstKeptEntryId` up to this entry) is shown as transcript text after it.
 */
export interface CompactionEntry extends EntryBase {
  type: "compaction";
  summary: string;
  firstKeptEntryId: string | null;
  tokensBefore: number;
  details?: unknown;
  /** The text came from a `session_before_compact` tap (rung "extension"). */
  fromHook?: boolean;
}

export interface SessionInfoEntry extends EntryBase {
  type: "session_info";
  name: string;
}

/** Labels `targetId`; an absent or empty label clears it. */
export interface LabelEntry extends EntryBase {
  type: "label";
  targetId: string;
  label?: string;
}

/** Plugin/extension data; never part of the LLM context. */
export interface CustomEntry extends EntryBase {
  type: "custom";
  customType: string;
  data?: unknown;
}

export type SessionEntry =
  | MessageEntry
  | ModelChangeEntry
  | ThinkingLevelChangeEntry
  | CompactionEntry
  | SessionInfoEntry
  | LabelEntry
  | CustomEntry;

export type SessionEntryType = SessionEntry["type"];

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** What callers append: an entry without its tree fields (the tree assigns them). */
export type NewSessionEntry = DistributiveOmit<SessionEntry, "id" | "parentId" | "timestamp">;

/** Per-call knobs of the verbatim-line compactor (the spec's snake_case names). */
export interface CompactionParameters {
  compression_ratio: number;
  preserve_recent: number;
  query?: string;
}

export interface CompactionStats {
  linesBefore: number;
  linesDeleted: number;
  linesKept: number;
  rangeCount: number;
  tokensBefore: number;
  tokensAfter: number;
  percentReduction: number;
}

/** What `compact` answers and `compaction_end.result` carries (spec: compact). */
export interface CompactionResult {
  compactedText: string;
  firstKeptEntryId: string | null;
  tokensBefore: number;
  promptVersion: number;
  parameters: CompactionParameters;
  /** How the text was produced: "planned" (model plan), "extension" (a hook), "fresh" (overflow fallback). */
  rung: string;
  stats: CompactionStats;
  backupPath?: string;
}

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
