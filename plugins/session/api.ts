/**
 * The session plugin's public surface: the entry types of the append-only session tree, the
 * storage contract a persistence plugin (session-jsonl) fulfils, and the `session` service other
 * plugins (export-html, compaction) read and append through.
 */
import type { AgentMessage, ThinkingLevel } from "../../kernel/index.js";

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

/** What the model sees from the active branch. */
export interface SessionContext {
  messages: AgentMessage[];
  model: { provider: string; modelId: string } | null;
  thinkingLevel: ThinkingLevel | null;
}

export interface TreeNode {
  entry: SessionEntry;
  children: TreeNode[];
  label?: string;
  labelTimestamp?: string;
}

/** Where one session's entries go. Appends are queued in order and never block the caller. */
export interface SessionStorage {
  /** Absolute path of the session file; undefined for in-memory sessions. */
  readonly file: string | undefined;
  /** Queues entries (one line each) after everything queued before. */
  append(entries: readonly SessionEntry[]): void;
  /** Resolves once everything queued so far is written (readers of the file see it). */
  flush(): Promise<void>;
  /** Flushes, then releases the file. */
  close(): Promise<void>;
}

/** A session read back from storage. */
export interface LoadedSession {
  /** Resolved path it was read from. */
  file: string;
  header: SessionHeader;
  entries: SessionEntry[];
  /** Appends to the same file (created lazily, nothing is written until the first append). */
  storage: SessionStorage;
}

/** A session file's writes failing (`error` set) or working again (`error` undefined). */
export interface SessionWriteStatus {
  file: string;
  error: string | undefined;
}

/** Persistence backend, provided by `session-jsonl` as the `sessionStore` service. */
export interface SessionStore {
  /** False with --no-session: new sessions stay in memory, files are only read. */
  readonly persistent: boolean;
  /** Directory new session files go to. */
  sessionDir(): string;
  /** Storage for a brand-new session; its file is created at the first append. */
  create(header: SessionHeader): SessionStorage;
  /** Reads a session file. Throws `File not found: <path>` / `Not a valid session file: <path>`. */
  load(path: string): Promise<LoadedSession>;
  /** Copies a loaded file into the session directory under a fresh name; the result appends there. */
  importCopy(source: LoadedSession): Promise<LoadedSession>;
  /** Why new session files cannot be written now (a message naming the dir), or undefined. */
  checkWritable(): Promise<string | undefined>;
  /** Write failures and recoveries of any session file of this store; returns the unsubscribe function. */
  onWriteStatus(listener: (status: SessionWriteStatus) => void): () => void;
}

/** The current session, for plugins that read or extend it (export, compaction). */
export interface SessionApi {
  header(): SessionHeader;
  /** All entries, every branch, append order. */
  entries(): readonly SessionEntry[];
  leafId(): string | null;
  /** Root -> leaf path. */
  branch(): SessionEntry[];
  context(): SessionContext;
  /** Undefined for in-memory sessions. */
  sessionFile(): string | undefined;
  sessionName(): string | undefined;
  /** Appends a child of the leaf and moves the leaf to it. */
  append(entry: NewSessionEntry): SessionEntry;
  /** Waits until every appended entry is on disk. */
  flush(): Promise<void>;
}

declare module "../../kernel/services.js" {
  interface Services {
    session: SessionApi;
    sessionStore: SessionStore;
  }
}

declare module "../../kernel/events.js" {
  interface EventMap {
    /**
     * A session file could not be written (read-only folder, disk full, ...): the client hears
     * it here, once per failing file and message, and `get_state.sessionWriteError` holds the
     * message until a write to the current session file succeeds again.
     */
    session_write_error: { sessionFile: string; error: string };
  }
}

/** Pure helpers other plugins may use on session data (totals for export, token estimates for compaction). */
export { computeSessionTotals, estimateContextTokens, estimateMessageTokens, type SessionTotals } from "./stats.js";
