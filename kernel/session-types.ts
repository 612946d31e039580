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

/** Messages before `firstKeptEntryId` on the path are replaced by `summary` in the context. */
export interface CompactionEntry extends EntryBase {
  type: "compaction";
  summary: string;
  firstKeptEntryId: string | null;
  tokensBefore: number;
  details?: unknown;
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

/** What the compactor is about to do, as hooks see it (frozen). */
export interface CompactionPreparation {
  /** The numbered transcript the planner would see (everything but the protected tail). */
  transcript: string;
  /** Messages rendered into the transcript, oldest first. */
  messagesToCompact: AgentMessage[];
  /** The protected tail, kept verbatim. */
  keptMessages: AgentMessage[];
  firstKeptEntryId: string | null;
  tokensBefore: number;
}
