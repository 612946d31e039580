/**
 * The session manager: holds the current session (header + tree + storage) and builds
 * replacements. Building a session has no side effect; `activate` makes it current, writes
 * what a fork/clone copied, and closes the previous storage. Hooks and the agent are the
 * plugin's business (see switcher.ts), so this class stays testable with memory storage.
 */
import { uuidV7 } from "../../lib/random-ids/index.js";
import { ErrorCode, KernelError } from "../../kernel/index.js";
import type { LoadedSession, NewSessionEntry, SessionEntry, SessionHeader, SessionStorage, SessionStore } from "./api.js";
import { MemoryStorage } from "./memory-storage.js";
import { SessionTree, type IdSource } from "./tree.js";

export interface Session {
  header: SessionHeader;
  tree: SessionTree;
  storage: SessionStorage;
  /** True when the tree holds copied entries the storage has not received yet (fork, clone). */
  unsaved: boolean;
}

/** A session whose storage can write its whole file again from the tree (when the file left its path). */
function session(header: SessionHeader, tree: SessionTree, storage: SessionStorage, unsaved: boolean): Session {
  storage.wholeFrom?.(() => ({ header, entries: tree.entries() }));
  return { header, tree, storage, unsaved };
}

export interface SessionManagerOptions {
  cwd: string;
  /** The persistence backend; absent = memory only (and files cannot be opened). */
  store?: SessionStore;
  nextId?: IdSource;
  now?: () => Date;
}

export class SessionManager {
  readonly #cwd: string;
  readonly #store: SessionStore | undefined;
  readonly #nextId: IdSource | undefined;
  readonly #now: () => Date;
  #current: Session;

  constructor(options: SessionManagerOptions) {
    this.#cwd = options.cwd;
    this.#store = options.store;
    this.#nextId = options.nextId;
    this.#now = options.now ?? (() => new Date());
    this.#current = this.newSession();
  }

  get current(): Session {
    return this.#current;
  }

  /** Whether new sessions are written to files. */
  get persistent(): boolean {
    return this.#store?.persistent ?? false;
  }

  /** A fresh session; with `entries`, a copy of that path (same ids and parents); `id` as given (`--session-id`). */
  newSession(options: { parentSession?: string; entries?: readonly SessionEntry[]; id?: string } = {}): Session {
    const header: SessionHeader = {
      type: "session",
      version: 1,
      id: options.id ?? uuidV7(),
      timestamp: this.#now().toISOString(),
      cwd: this.#cwd,
    };
    if (options.parentSession !== undefined) header.parentSession = options.parentSession;
    const tree = SessionTree.fromEntries(options.entries ?? [], this.#nextId);
    const storage = this.persistent ? this.#store!.create(header) : new MemoryStorage();
    return session(header, tree, storage, tree.size > 0);
  }

  /** Reads and validates a session file (no switch yet). */
  async read(path: string): Promise<LoadedSession> {
    if (!this.#store) {
      throw new KernelError(ErrorCode.UNAVAILABLE, "Cannot open session files: the session-jsonl plugin is not loaded");
    }
    return this.#store.load(path);
  }

  /**
   * A fresh session whose file will be `path`, when no session is written there yet (pi opens
   * such a path as a new session); undefined otherwise, or in memory-only mode (--no-session
   * never writes a file).
   */
  async startAt(path: string): Promise<Session | undefined> {
    if (!this.persistent || !this.#store!.startAt) return undefined;
    const header: SessionHeader = { type: "session", version: 1, id: uuidV7(), timestamp: this.#now().toISOString(), cwd: this.#cwd };
    const storage = await this.#store!.startAt(path, header);
    if (!storage) return undefined;
    // The path is the caller's choice: another agent may be starting a session there too.
    await storage.claim?.();
    return session(header, SessionTree.fromEntries([], this.#nextId), storage, false);
  }

  /**
   * A loaded file as a session to write to: its lock is taken now, so a file another agent or
   * process holds is refused (`E_IN_USE`) before anything changes. With --no-session it
   * is only read, never appended to (and not locked).
   */
  async openLoaded(loaded: LoadedSession): Promise<Session> {
    const storage: SessionStorage = this.persistent ? loaded.storage : new MemoryStorage();
    await storage.claim?.();
    return session(loaded.header, SessionTree.fromEntries(loaded.entries, this.#nextId), storage, false);
  }

  /** Copies a loaded file into the session directory (persistent mode) and opens the copy. */
  async importLoaded(loaded: LoadedSession): Promise<Session> {
    if (!this.persistent) return this.openLoaded(loaded);
    return this.openLoaded(await this.#store!.importCopy(loaded));
  }

  /** New session holding the root -> parent-of-`entryId` path; its parent is the current file. */
  forkFrom(entryId: string): Session {
    const path = this.#current.tree.pathTo(entryId);
    return this.#derived(path.slice(0, -1));
  }

  /** New session holding the root -> leaf path. */
  clone(): Session {
    return this.#derived(this.#current.tree.branch());
  }

  /** Makes `next` current: writes copied entries, then closes the previous storage. */
  async activate(next: Session): Promise<void> {
    const previous = this.#current;
    if (next.unsaved) {
      next.storage.append(next.tree.entries());
      next.unsaved = false;
    }
    this.#current = next;
    await previous.storage.close();
    await next.storage.flush();
  }

  /** Appends to the current session: a child of the leaf, queued for storage. */
  append(partial: NewSessionEntry): SessionEntry {
    const session = this.#current;
    const entry = session.tree.append(partial, this.#now());
    session.storage.append([entry]);
    return entry;
  }

  async flush(): Promise<void> {
    await this.#current.storage.flush();
  }

  /** Appends to a session that is no longer current (a result that outlived it), then releases its file again. */
  async appendToReplaced(session: Session, partial: NewSessionEntry): Promise<SessionEntry> {
    const entry = session.tree.append(partial, this.#now());
    session.storage.append([entry]);
    await session.storage.close();
    return entry;
  }

  /**
   * A new session holding `path` (same ids) without its label entries, each entry re-linked to
   * the one before it where a label was dropped; the labels its entries carry now (wherever they
   * were set) follow as fresh label entries chained after the last one, with their original
   * timestamps.
   */
  #derived(path: readonly SessionEntry[]): Session {
    const parentSession = this.#current.storage.file;
    const entries: SessionEntry[] = [];
    for (const entry of path) {
      if (entry.type === "label") continue;
      const parentId = entries.at(-1)?.id ?? null;
      entries.push(entry.parentId === parentId ? entry : { ...entry, parentId });
    }
    const session = this.newSession(parentSession === undefined ? { entries } : { parentSession, entries });
    const labels = this.#current.tree.labels();
    for (const entry of entries) {
      const label = labels.get(entry.id);
      if (!label) continue;
      const when = new Date(label.timestamp);
      session.tree.append({ type: "label", targetId: entry.id, label: label.label }, Number.isNaN(when.getTime()) ? this.#now() : when);
    }
    session.unsaved = session.tree.size > 0;
    return session;
  }
}
