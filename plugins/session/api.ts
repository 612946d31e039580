/**
 * The session plugin's public surface: the entry types of the append-only session tree, the
 * storage contract a persistence plugin (session-jsonl) fulfils, and the `session` service other
 * plugins (export-html, compaction) read and append through.
 */
import { z } from "zod";
import type { AgentMessage, ThinkingLevel } from "../../lib/llm/index.js";
import type { NewSessionEntry, SessionEntry, SessionHeader, SessionInfo } from "./entry-types.js";
import { SessionEntrySchema } from "./entry-schemas.js";
import type { SessionHooks } from "./hooks.js";

export type { CancelVeto, SessionHooks, SessionStartReason } from "./hooks.js";
export * from "./entry-schemas.js";
/** The entry types: protocol vocabulary, and what plugins that read sessions use. */
export type {
  SessionHeader,
  MessageEntry,
  ModelChangeEntry,
  ThinkingLevelChangeEntry,
  CompactionEntry,
  SessionInfoEntry,
  LabelEntry,
  CustomEntry,
  SessionEntry,
  SessionEntryType,
  NewSessionEntry,
  SessionInfo,
} from "./entry-types.js";

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
  /** Flushes, then releases the file (and its lock). */
  close(): Promise<void>;
  /**
   * Flushes, with one more try for entries a failed write kept back: why some are still not in
   * the file, or undefined when all are. Storages that cannot fail lack it.
   */
  unsaved?(): Promise<string | undefined>;
  /**
   * Takes the file for writing now (its session lock) rather than at the first write: throws an
   * `E_IN_USE` error while another agent or process holds it. Storages without files lack it.
   */
  claim?(): Promise<void>;
  /**
   * What the whole file holds, from memory (the header and every entry, in order): a storage
   * that finds its file deleted or moved away while in use writes it all again at its path.
   * Storages without files lack it.
   */
  wholeFrom?(source: () => { header: SessionHeader; entries: readonly SessionEntry[] }): void;
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
  /** Reads a session file. Throws `File not found: <path>` / `Not a valid session file: <path> (<why>)`. */
  load(path: string): Promise<LoadedSession>;
  /**
   * Storage for a brand-new session at `path` when no session is written there yet (no file, or
   * an empty one: pi's lazily written sessions, a fork at the first message); undefined when the
   * path holds something else. The file is created at the first append, as with `create`.
   */
  startAt?(path: string, header: SessionHeader): Promise<SessionStorage | undefined>;
  /** Copies a loaded file into the session directory under a fresh name; the result appends there. */
  importCopy(source: LoadedSession): Promise<LoadedSession>;
  /**
   * Stored sessions, newest first: those of the session directory, or with `all` every session
   * folder's. Files that are not sessions are left out. Optional for stores that cannot list.
   */
  list?(options?: { all?: boolean }): Promise<SessionInfo[]>;
  /** The file of the session directory's session written most recently (`--continue`): cheaper than `list()[0]`. */
  latest?(): Promise<string | undefined>;
  /** Why new session files cannot be written now (a message naming the dir), or undefined. */
  checkWritable(): Promise<string | undefined>;
  /** Whether `path` holds a session (a regular file whose first line is a session header): what a writer of other files must not replace. */
  isSessionFile?(path: string): Promise<boolean>;
  /** Write failures and recoveries of any session file of this store; returns the unsubscribe function. */
  onWriteStatus(listener: (status: SessionWriteStatus) => void): () => void;
}

/**
 * One session, held across replacements: where a result that outlives the session it started in
 * goes (a user `bash` still running when `new_session`, `switch_session`, `fork`, ... completes).
 */
export interface SessionHandle {
  readonly id: string;
  /** Its file; undefined for an in-memory session. */
  readonly file: string | undefined;
  /** Whether it is still the current session (or the current one reopened its file). */
  isCurrent(): boolean;
  /** Appends a `message` entry after its leaf, current or not; resolves once it is written. */
  appendMessage(message: AgentMessage): Promise<void>;
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
  /** Names the session (a `session_info` entry), fires the `session_info_changed` hook and event. Throws `Session name cannot be empty` for a blank name, an invalid-input error for a control character. */
  setSessionName(name: string): Promise<void>;
  /** Appends a child of the leaf and moves the leaf to it; a `custom` entry (an extension's data) is announced as `entry_appended`. */
  append(entry: NewSessionEntry): SessionEntry;
  /** Waits until every appended entry is on disk. */
  flush(): Promise<void>;
  /** Flushes, with one more try for entries a failed write kept back: why some are still not on disk, or undefined when all are. */
  unsaved(): Promise<string | undefined>;
  /** The current session as a handle that stays bound to it after it is replaced. */
  handle(): SessionHandle;
}

declare module "../../kernel/services.js" {
  interface Services {
    session: SessionApi;
    sessionStore: SessionStore;
  }
}

declare module "../../kernel/hooks.js" {
  interface HookCatalog extends SessionHooks {}
}

/**
 * A session file could not be written (read-only folder, disk full, ...), or was lost from its
 * path while in use and written again whole: the client hears it here, once per failing file and message, and `get_state.sessionWriteError` holds the message
 * until a write to the current session file succeeds again.
 */
export const SessionWriteErrorSchema = () =>
  z.object({ sessionFile: z.string().describe("The file that could not be written."), error: z.string().describe("Why (the system's message).") }).meta({
    description:
      "A session file could not be written (read-only folder, disk full, replaced by another file while in use, ...); entries are kept and written when it works again. Also sent once when the file was deleted or moved away while in use: it was then written again whole at its path, and the error says so.",
    examples: [{ sessionFile: "/home/ada/.atomic/agent/sessions/--home-ada-app--/2026-12-01T09-00-00-000Z_0193.jsonl", error: "ENOSPC: no space left on device, write" }],
  });

/** pi 1.x: the display name changed (set_session_name, an extension's setSessionName). */
export const SessionInfoChangedSchema = () =>
  z
    .object({ name: z.string().optional().meta({ description: "The session's name now; absent when it has none." }) })
    .meta({ description: "The session's display name changed (set_session_name, or an extension's setSessionName).", examples: [{ name: "fix-flaky-test" }] });

/** pi 1.x: an entry the client did not cause through a command was stored. */
export const EntryAppendedSchema = () =>
  z.object({ entry: SessionEntrySchema().meta({ description: "The stored entry, as get_entries returns it." }) }).meta({
    description: "An extension stored a custom entry in the session (pi's appendEntry); `since` cursors of get_entries may use its id.",
    examples: [
      { entry: { type: "message", id: "a1b2c3d4", parentId: null, timestamp: "2026-12-01T09:00:00.000Z", message: { role: "user", content: "Hi", timestamp: 1764579600000 } } },
    ],
  });

declare module "../../kernel/events.js" {
  interface EventMap {
    session_write_error: z.output<ReturnType<typeof SessionWriteErrorSchema>>;
    session_info_changed: z.output<ReturnType<typeof SessionInfoChangedSchema>>;
    entry_appended: { entry: SessionEntry };
  }
}

/** Pure helpers other plugins may use on session data (totals for export, token estimates for compaction). */
export { computeSessionTotals, estimateContextTokens, estimateMessageTokens, type SessionTotals } from "./stats.js";
/** How a verbatim-line compaction entry is recognised (`details.strategy`) and introduced to the model. */
export { VERBATIM_PREFIX, VERBATIM_STRATEGY } from "./context.js";

/** A stored session name as listings show it: on one line (control characters as spaces). */
export { oneLineName } from "./limits.js";

/** The hooks this plugin declares (for a stand-in plugin in tests, which must declare them too). */
export { sessionHookDeclarations } from "./hooks.js";
