/**
 * pi's `SessionManager` for extensions: a session file (or one in memory) other than the
 * agent's own, read and written in pi's format (the one Atomic's sessions use), synchronously as
 * pi's is. An extension uses it to read a session (`open(path).getEntries()`), to start one for
 * its own purposes, or to list them. The file is written once it holds a user or assistant
 * message; later entries are appended. The agent's running session is `ctx.sessionManager`.
 */
import { appendFileSync, existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { uuidv7 } from "./pi-ai.js";
import { CURRENT_SESSION_VERSION, type FileEntry, migrateSessionEntries, type SessionEntry, type SessionHeader } from "./session-context.js";
import { SessionEntries } from "./session-entries.js";
import { defaultSessionDir, findMostRecentSession, listAllSessions, listSessions, loadEntriesFromFile, readHeader, type SessionInfo } from "./session-files.js";
import { checkedId, findSessionFile, forkSessionFile, type NewSessionOptions, now, sessionFileName, writeLines } from "./session-manager-files.js";
import { makeFolderSync } from "../../../lib/make-folder/index.js";

export type { NewSessionOptions } from "./session-manager-files.js";
export type { SessionTreeNode } from "./session-tree.js";
type Progress = (loaded: number, total: number) => void;

/** The entries, their tree and the appends are SessionEntries' (session-entries.ts); here, where they live. */
export class SessionManager extends SessionEntries {
  /** Set per agent (modules.ts): where `create`, `continueRecent` and `listAll` look by default. */
  static agentDir = join(process.env.HOME ?? ".", ".atomic", "agent");

  #id = "";
  #file: string | undefined;
  readonly #dir: string;
  readonly #cwd: string;
  readonly #persist: boolean;
  #flushed = false;

  /** Use the static constructors (create, open, continueRecent, inMemory, forkFrom). */
  constructor(cwd: string, sessionDir: string, sessionFile: string | undefined, persist: boolean, options?: NewSessionOptions, entries?: FileEntry[]) {
    super();
    this.#cwd = resolve(cwd);
    this.#dir = sessionDir ? resolve(sessionDir) : "";
    this.#persist = persist;
    if (persist && this.#dir) makeFolderSync(this.#dir);
    if (sessionFile) this.#open(sessionFile, entries);
    else if (entries?.length) this.#load(entries, options);
    else this.newSession(options);
  }

  static create(cwd: string, sessionDir?: string, options?: NewSessionOptions): SessionManager {
    // biome-ignore lint/complexity/noThisInStatic: the per-agent subclass (modules.ts) sets agentDir
    return new this(cwd, sessionDir ?? defaultSessionDir(cwd, this.agentDir), undefined, true, options);
  }

  static open(path: string, sessionDir?: string, cwdOverride?: string): SessionManager {
    const file = resolve(path);
    const cwd = cwdOverride ?? (existsSync(file) ? readHeader(file)?.cwd : undefined) ?? process.cwd();
    return new this(cwd, sessionDir ?? resolve(file, ".."), file, true);
  }

  static continueRecent(cwd: string, sessionDir?: string): SessionManager {
    // biome-ignore lint/complexity/noThisInStatic: the per-agent subclass (modules.ts) sets agentDir
    const dir = sessionDir ?? defaultSessionDir(cwd, this.agentDir);
    const recent = findMostRecentSession(dir, sessionDir !== undefined ? cwd : undefined);
    return new this(cwd, dir, recent ?? undefined, true);
  }

  static inMemory(cwd: string = process.cwd(), options?: NewSessionOptions, entries?: FileEntry[]): SessionManager {
    return new this(cwd, "", undefined, false, options, entries);
  }

  /** A new session file in `targetCwd`'s folder holding a copy of `sourcePath`'s entries. */
  static forkFrom(sourcePath: string, targetCwd: string, sessionDir?: string, options?: NewSessionOptions): SessionManager {
    const cwd = resolve(targetCwd);
    // biome-ignore lint/complexity/noThisInStatic: the per-agent subclass (modules.ts) sets agentDir
    const dir = sessionDir ?? defaultSessionDir(cwd, this.agentDir);
    return new this(cwd, dir, forkSessionFile(sourcePath, cwd, dir, options), true);
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
    this.setFileEntries([
      { type: "session", version: CURRENT_SESSION_VERSION, id: this.#id, timestamp, cwd: this.#cwd, ...(options?.parentSession ? { parentSession: options.parentSession } : {}) },
    ]);
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

  /** A new session holding the branch to `leafId` (labels on it kept); its file when persisted. */
  createBranchedSession(leafId: string): string | undefined {
    const entries = this.branchCopy(leafId);
    const previous = this.#file;
    this.#id = uuidv7();
    const timestamp = now();
    this.setFileEntries([
      { type: "session", version: CURRENT_SESSION_VERSION, id: this.#id, timestamp, cwd: this.#cwd, ...(this.#persist && previous ? { parentSession: previous } : {}) },
      ...entries,
    ]);
    if (!this.#persist) return undefined;
    this.#file = join(this.#dir, sessionFileName(timestamp, this.#id));
    this.#flushed = this.#hasConversation();
    if (this.#flushed) writeLines(this.#file, this.fileEntries, "w");
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
      writeLines(file, this.fileEntries, "w");
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
      this.#id = header.id;
      const migrated = migrateSessionEntries(entries);
      this.setFileEntries(entries);
      if (migrated && this.#persist && this.#file) writeLines(this.#file, entries, "w");
    } else {
      this.newSession(options);
      this.setFileEntries([...this.fileEntries, ...entries]);
    }
  }

  #hasConversation(): boolean {
    return this.getEntries().some((entry) => entry.type === "message" && (entry.message?.role === "user" || entry.message?.role === "assistant"));
  }

  /** Nothing is written before the session holds a conversation; then the whole file once, then appends. */
  protected writeEntry(entry: SessionEntry): void {
    if (!this.#persist || !this.#file) return;
    if (this.#flushed) return appendFileSync(this.#file, `${JSON.stringify(entry)}\n`);
    if (!this.#hasConversation()) return;
    writeLines(this.#file, this.fileEntries, "wx");
    this.#flushed = true;
  }
}
