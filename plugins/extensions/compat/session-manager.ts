/**
 * pi's `SessionManager` for extensions: a session file (or one in memory) other than the
 * agent's own, read and written in pi's format (the one Atomic's sessions use), synchronously as
 * pi's is. An extension uses it to read a session (`open(path).getEntries()`), to start one for
 * its own purposes, or to list them. The file is written once it holds a user or assistant
 * message; later entries are appended. The agent's running session is `ctx.sessionManager`.
 */
import { appendFileSync, existsSync, mkdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { uuidv7 } from "./pi-ai.js";
import {
  buildContextEntries,
  buildSessionProjection,
  CURRENT_SESSION_VERSION,
  type ContextMessage,
  type FileEntry,
  migrateSessionEntries,
  newEntryId,
  type SessionContext,
  type SessionEntry,
  type SessionHeader,
  type SessionProjection,
} from "./session-context.js";
import { defaultSessionDir, findMostRecentSession, listAllSessions, listSessions, loadEntriesFromFile, readHeader, type SessionInfo } from "./session-files.js";
import { checkedId, findSessionFile, forkSessionFile, type NewSessionOptions, now, sessionFileName, writeLines } from "./session-manager-files.js";
import { branchedEntries, buildTree, contextEditReplacement, type SessionTreeNode } from "./session-tree.js";
import { getCurrentSystemMessage } from "./transcript.js";

export type { NewSessionOptions } from "./session-manager-files.js";
export type { SessionTreeNode } from "./session-tree.js";
type Progress = (loaded: number, total: number) => void;

export class SessionManager {
  /** Set per agent (modules.ts): where `create`, `continueRecent` and `listAll` look by default. */
  static agentDir = join(process.env.HOME ?? ".", ".atomic", "agent");

  #id = "";
  #file: string | undefined;
  readonly #dir: string;
  readonly #cwd: string;
  readonly #persist: boolean;
  #flushed = false;
  #entries: FileEntry[] = [];
  readonly #byId = new Map<string, SessionEntry>();
  readonly #labels = new Map<string, { label: string; timestamp: string }>();
  #leaf: string | null = null;

  /** Use the static constructors (create, open, continueRecent, inMemory, forkFrom). */
  constructor(cwd: string, sessionDir: string, sessionFile: string | undefined, persist: boolean, options?: NewSessionOptions, entries?: FileEntry[]) {
    this.#cwd = resolve(cwd);
    this.#dir = sessionDir ? resolve(sessionDir) : "";
    this.#persist = persist;
    if (persist && this.#dir) mkdirSync(this.#dir, { recursive: true });
    if (sessionFile) this.#open(sessionFile, entries);
    else if (entries?.length) this.#load(entries, options);
    else this.newSession(options);
  }

  static create(cwd: string, sessionDir?: string, options?: NewSessionOptions): SessionManager {
    // biome-ignore lint/complexity/noThisInStatic: the per-agent subclass (modules.ts) sets agentDir
    return new SessionManager(cwd, sessionDir ?? defaultSessionDir(cwd, this.agentDir), undefined, true, options);
  }

  static open(path: string, sessionDir?: string, cwdOverride?: string): SessionManager {
    const file = resolve(path);
    const cwd = cwdOverride ?? (existsSync(file) ? readHeader(file)?.cwd : undefined) ?? process.cwd();
    return new SessionManager(cwd, sessionDir ?? resolve(file, ".."), file, true);
  }

  static continueRecent(cwd: string, sessionDir?: string): SessionManager {
    // biome-ignore lint/complexity/noThisInStatic: the per-agent subclass (modules.ts) sets agentDir
    const dir = sessionDir ?? defaultSessionDir(cwd, this.agentDir);
    const recent = findMostRecentSession(dir, sessionDir !== undefined ? cwd : undefined);
    return new SessionManager(cwd, dir, recent ?? undefined, true);
  }

  static inMemory(cwd: string = process.cwd(), options?: NewSessionOptions, entries?: FileEntry[]): SessionManager {
    return new SessionManager(cwd, "", undefined, false, options, entries);
  }

  /** A new session file in `targetCwd`'s folder holding a copy of `sourcePath`'s entries. */
  static forkFrom(sourcePath: string, targetCwd: string, sessionDir?: string, options?: NewSessionOptions): SessionManager {
    const cwd = resolve(targetCwd);
    // biome-ignore lint/complexity/noThisInStatic: the per-agent subclass (modules.ts) sets agentDir
    const dir = sessionDir ?? defaultSessionDir(cwd, this.agentDir);
    return new SessionManager(cwd, dir, forkSessionFile(sourcePath, cwd, dir, options), true);
  }

  static findById(cwd: string, id: string, sessionDir?: string): string | undefined {
    // biome-ignore lint/complexity/noThisInStatic: the per-agent subclass (modules.ts) sets agentDir
    return findSessionFile(sessionDir ?? defaultSessionDir(cwd, this.agentDir), id, sessionDir === undefined ? undefined : cwd);
  }

  static async list(cwd: string, sessionDir?: string, onProgress?: Progress, signal?: AbortSignal): Promise<SessionInfo[]> {
    // biome-ignore lint/complexity/noThisInStatic: the per-agent subclass (modules.ts) sets agentDir
    const sessions = await listSessions(sessionDir ?? defaultSessionDir(cwd, this.agentDir), onProgress, signal);
    return sessionDir === undefined ? sessions : sessions.filter((session) => resolve(session.cwd) === resolve(cwd));
  }

  static async listAll(dirOrProgress?: string | Progress, progressOrSignal?: Progress | AbortSignal, signal?: AbortSignal): Promise<SessionInfo[]> {
    const progress = typeof dirOrProgress === "function" ? dirOrProgress : typeof progressOrSignal === "function" ? progressOrSignal : undefined;
    const abort = progressOrSignal instanceof AbortSignal ? progressOrSignal : signal;
    if (typeof dirOrProgress === "string") return listSessions(resolve(dirOrProgress), progress, abort);
    // biome-ignore lint/complexity/noThisInStatic: the per-agent subclass (modules.ts) sets agentDir
    return listAllSessions(join(this.agentDir, "sessions"), progress, abort);
  }

  setSessionFile(sessionFile: string): void {
    this.#open(sessionFile);
  }

  /** Starts an empty session (a new id and file name); returns the file it will be written to. */
  newSession(options?: NewSessionOptions): string | undefined {
    this.#id = checkedId(options?.id) ?? uuidv7();
    const timestamp = now();
    this.#entries = [
      { type: "session", version: CURRENT_SESSION_VERSION, id: this.#id, timestamp, cwd: this.#cwd, ...(options?.parentSession ? { parentSession: options.parentSession } : {}) },
    ];
    this.#index();
    this.#flushed = false;
    if (this.#persist) this.#file = join(this.#dir, sessionFileName(timestamp, this.#id));
    return this.#file;
  }

  isPersisted(): boolean {
    return this.#persist;
  }
  getCwd(): string {
    return this.#cwd;
  }
  getSessionDir(): string {
    return this.#dir;
  }
  usesDefaultSessionDir(): boolean {
    return this.#dir === defaultSessionDir(this.#cwd, (this.constructor as typeof SessionManager).agentDir);
  }
  getSessionId(): string {
    return this.#id;
  }
  getSessionFile(): string | undefined {
    return this.#file;
  }
  getHeader(): SessionHeader | null {
    return (this.#entries.find((entry) => entry.type === "session") as SessionHeader | undefined) ?? null;
  }
  getEntries(): SessionEntry[] {
    return this.#entries.filter((entry): entry is SessionEntry => entry.type !== "session");
  }
  getEntryCount(): number {
    return this.#byId.size;
  }
  getLeafId(): string | null {
    return this.#leaf;
  }
  getLeafEntry(): SessionEntry | undefined {
    return this.#leaf ? this.#byId.get(this.#leaf) : undefined;
  }
  getEntry(id: string): SessionEntry | undefined {
    return this.#byId.get(id);
  }
  getChildren(parentId: string): SessionEntry[] {
    return [...this.#byId.values()].filter((entry) => entry.parentId === parentId);
  }
  getLabel(id: string): string | undefined {
    return this.#labels.get(id)?.label;
  }
  getSessionName(): string | undefined {
    const info = this.#entries.findLast((entry) => entry.type === "session_info") as SessionEntry | undefined;
    return info?.name?.trim() || undefined;
  }

  /** Root to `fromId` (default: the leaf). */
  getBranch(fromId?: string): SessionEntry[] {
    const path: SessionEntry[] = [];
    for (let entry = this.#byId.get(fromId ?? this.#leaf ?? ""); entry; entry = entry.parentId ? this.#byId.get(entry.parentId) : undefined) path.push(entry);
    return path.reverse();
  }

  getTree(): SessionTreeNode[] {
    return buildTree(this.getEntries(), this.#labels);
  }

  buildContextEntries(): SessionEntry[] {
    return buildContextEntries(this.getEntries(), this.#leaf, this.#byId);
  }
  buildSessionProjection(): SessionProjection {
    return buildSessionProjection(this.getEntries(), this.#leaf, this.#byId);
  }
  buildSessionContext(): SessionContext {
    const { messages, thinkingLevel, model } = this.buildSessionProjection();
    return { messages, thinkingLevel, model };
  }

  appendMessage(message: ContextMessage): string {
    return this.#append({ type: "message", message });
  }
  appendThinkingLevelChange(thinkingLevel: string): string {
    return this.#append({ type: "thinking_level_change", thinkingLevel });
  }
  appendModelChange(provider: string, modelId: string): string {
    return this.#append({ type: "model_change", provider, modelId });
  }
  appendUsage(kind: string, provider: string, model: string, usage: unknown, note?: string): SessionEntry {
    const id = this.#append({ type: "usage", kind, provider, model, usage, ...(note ? { note } : {}) });
    return this.#byId.get(id)!;
  }
  appendCompaction(summary: string, firstKeptEntryId: string | null, tokensBefore: number, details?: unknown, fromHook?: boolean, usage?: unknown): string {
    const timestamp = now();
    const system = getCurrentSystemMessage(this.buildSessionProjection().messages as never);
    const id = newEntryId(this.#byId);
    return this.#append(
      {
        type: "compaction",
        summary,
        firstKeptEntryId: firstKeptEntryId ?? id,
        tokensBefore,
        details,
        usage,
        fromHook,
        ...(system ? { systemMessage: { ...system, timestamp: Date.parse(timestamp) } } : {}),
      },
      { id, timestamp },
    );
  }
  appendCustomEntry(customType: string, data?: unknown): string {
    return this.#append({ type: "custom", customType, data });
  }
  appendSessionInfo(name: string): string {
    return this.#append({
      type: "session_info",
      name: String(name)
        .replace(/[\r\n]+/g, " ")
        .trim(),
    });
  }
  appendCustomMessageEntry(customType: string, content: unknown, display: boolean, details?: unknown): string {
    return this.#append({ type: "custom_message", customType, content, display, details });
  }
  appendContextEdit(targetId: string, replacement: { content: unknown } | null): string {
    const wrapped = contextEditReplacement(this.#byId.get(targetId), targetId, replacement, () => this.getBranch());
    return this.#append({ type: "context_edit", targetId, replacement: wrapped });
  }
  appendLabelChange(targetId: string, label: string | undefined): string {
    if (!this.#byId.has(targetId)) throw new Error(`Entry ${targetId} not found`);
    const id = this.#append({ type: "label", targetId, label });
    this.#noteLabel(this.#byId.get(id)!);
    return id;
  }

  /** The leaf moves to `branchFromId`: the next entry starts a branch there. */
  branch(branchFromId: string): void {
    if (!this.#byId.has(branchFromId)) throw new Error(`Entry ${branchFromId} not found`);
    this.#leaf = branchFromId;
  }
  resetLeaf(): void {
    this.#leaf = null;
  }
  branchWithSummary(branchFromId: string | null, summary: string, details?: unknown, fromHook?: boolean, usage?: unknown): string {
    if (branchFromId !== null && !this.#byId.has(branchFromId)) throw new Error(`Entry ${branchFromId} not found`);
    const fromId = this.#leaf ?? "root";
    this.#leaf = branchFromId;
    return this.#append({ type: "branch_summary", fromId, summary, details, usage, fromHook });
  }

  /** A new session holding the branch to `leafId` (labels on it kept); its file when persisted. */
  createBranchedSession(leafId: string): string | undefined {
    const path = this.getBranch(leafId).filter((entry) => entry.type !== "label");
    if (path.length === 0) throw new Error(`Entry ${leafId} not found`);
    const previous = this.#file;
    const entries = branchedEntries(path, this.#labels, newEntryId);
    this.#id = uuidv7();
    const timestamp = now();
    this.#entries = [
      { type: "session", version: CURRENT_SESSION_VERSION, id: this.#id, timestamp, cwd: this.#cwd, ...(this.#persist && previous ? { parentSession: previous } : {}) },
      ...entries,
    ];
    this.#index();
    if (!this.#persist) return undefined;
    this.#file = join(this.#dir, sessionFileName(timestamp, this.#id));
    this.#flushed = this.#hasConversation();
    if (this.#flushed) writeLines(this.#file, this.#entries, "w");
    return this.#file;
  }

  #open(sessionFile: string, preloaded?: FileEntry[]): void {
    const file = resolve(sessionFile);
    if (!existsSync(file)) {
      this.newSession();
      this.#file = file;
      return;
    }
    const entries = preloaded ?? loadEntriesFromFile(file);
    if (entries.length === 0) {
      if (statSync(file).size > 0) throw new Error(`Session file is not a valid session: ${file}`);
      this.newSession();
      this.#file = file;
      writeLines(file, this.#entries, "w");
      this.#flushed = true;
      return;
    }
    this.#file = file;
    this.#load(entries);
    this.#flushed = true;
  }

  #load(entries: FileEntry[], options?: NewSessionOptions): void {
    const header = entries.find((entry) => entry.type === "session") as SessionHeader | undefined;
    if (header) {
      this.#entries = entries;
      this.#id = header.id;
      if (migrateSessionEntries(this.#entries) && this.#persist && this.#file) writeLines(this.#file, this.#entries, "w");
    } else {
      this.newSession(options);
      this.#entries.push(...entries);
    }
    this.#index();
  }

  #index(): void {
    this.#byId.clear();
    this.#labels.clear();
    this.#leaf = null;
    for (const entry of this.getEntries()) {
      this.#byId.set(entry.id, entry);
      this.#leaf = entry.id;
      if (entry.type === "label") this.#noteLabel(entry);
    }
  }

  #noteLabel(entry: SessionEntry): void {
    if (entry.label) this.#labels.set(entry.targetId, { label: entry.label, timestamp: entry.timestamp });
    else this.#labels.delete(entry.targetId);
  }

  #hasConversation(): boolean {
    return this.getEntries().some((entry) => entry.type === "message" && (entry.message?.role === "user" || entry.message?.role === "assistant"));
  }

  #append(fields: Record<string, unknown> & { type: string }, given?: { id: string; timestamp: string }): string {
    const entry = { ...fields, id: given?.id ?? newEntryId(this.#byId), parentId: this.#leaf, timestamp: given?.timestamp ?? now() } as SessionEntry;
    const leaf = this.#leaf;
    this.#entries.push(entry);
    this.#byId.set(entry.id, entry);
    this.#leaf = entry.id;
    try {
      this.#write(entry);
    } catch (error) {
      this.#entries.pop();
      this.#byId.delete(entry.id);
      this.#leaf = leaf;
      throw error;
    }
    return entry.id;
  }

  /** Nothing is written before the session holds a conversation; then the whole file once, then appends. */
  #write(entry: SessionEntry): void {
    if (!this.#persist || !this.#file) return;
    if (this.#flushed) return appendFileSync(this.#file, `${JSON.stringify(entry)}\n`);
    if (!this.#hasConversation()) return;
    writeLines(this.#file, this.#entries, "wx");
    this.#flushed = true;
  }
}
