/**
 * The JSONL session store: one file per session, a header line then one entry per line. A new
 * session's file is created by its first append (header + entries in one write), 0600 in
 * folders 0700. Write failures and recoveries are published to `onWriteStatus` listeners (the
 * session plugin turns them into a protocol event and a get_state field).
 */
import { constants } from "node:fs";
import { access, chmod, copyFile, open, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { ErrorCode, expandHome, isKernelError } from "../../kernel/index.js";
import { lockSessionFile, newLockHolder, type LockHolder, type SessionFileLock } from "../../lib/session-lock/index.js";
import { formatSize } from "../../lib/truncate/index.js";
import type { LoadedSession, SessionEntry, SessionHeader, SessionStorage, SessionStore, SessionWriteStatus } from "../session/api.js";
import { sessionFileName } from "./paths.js";
import { MAX_LINE_BYTES, readSessionFile } from "./reader.js";
import { JsonlWriter } from "./writer.js";
import { makeFolder } from "../../lib/make-folder/index.js";

export interface JsonlStoreOptions {
  /** Where new session files go. */
  sessionDir: string;
  /** Relative paths given to load() resolve against this. */
  cwd: string;
  /** False with --no-session (the session plugin then keeps new sessions in memory). */
  persistent: boolean;
  warn: (message: string) => void;
  now?: () => Date;
}

type StatusListener = (status: SessionWriteStatus) => void;

interface StorageOptions {
  header?: SessionHeader;
  endsWithNewline?: boolean;
  warn: (message: string) => void;
  status?: StatusListener;
  /** The agent that writes it: its lock holder (a storage without one writes unlocked, as in unit tests). */
  holder?: LockHolder;
}

/** Appends entries of one session to its file; the header goes first when the file is new. */
export class JsonlFileStorage implements SessionStorage {
  readonly file: string;
  readonly #writer: JsonlWriter;
  readonly #status: StatusListener;
  readonly #holder: LockHolder | undefined;
  readonly #warn: (message: string) => void;
  #header: SessionHeader | undefined;
  #lock: Promise<SessionFileLock> | undefined;

  constructor(file: string, options: StorageOptions) {
    // A header to write means a new file (create()); a loaded or imported file already exists.
    this.file = file;
    this.#header = options.header;
    this.#status = options.status ?? (() => undefined);
    this.#holder = options.holder;
    this.#warn = options.warn;
    this.#writer = new JsonlWriter(file, {
      prefix: options.endsWithNewline === false ? "\n" : "",
      fresh: options.header !== undefined,
      // Nothing is written without the lock: a storage never claimed (a new session) takes it here.
      beforeOpen: () => this.#lockNow(),
      onError: (error) => {
        options.warn(`Cannot write session file ${file}: ${error.message}`);
        this.#status({ file, error: error.message });
      },
      onSuccess: () => this.#status({ file, error: undefined }),
      // What was appended since the file left its path went nowhere: the client hears that it is back whole.
      onRewritten: () => {
        const notice = "it was deleted or moved away while in use, so what was written since was not in it; the whole session was written there again";
        options.warn(`Session file ${file}: ${notice}`);
        this.#status({ file, error: notice });
        this.#status({ file, error: undefined });
      },
    });
  }

  wholeFrom(source: () => { header: SessionHeader; entries: readonly SessionEntry[] }): void {
    this.#writer.rewriteFrom(() => {
      const { header, entries } = source();
      // Copied now: entries appended while the text is written are queued, and written after it.
      return wholeText(header, entries.slice());
    });
  }

  append(entries: readonly SessionEntry[]): void {
    if (entries.length === 0) return;
    let text = "";
    if (this.#header) {
      text = JSON.stringify(this.#header) + "\n";
      this.#header = undefined;
    }
    for (const entry of entries) {
      const line = entryLine(entry);
      if (typeof line !== "string") {
        this.#status({
          file: this.file,
          error: `entry ${entry.id} (${formatSize(line.bytes)}) is over the ${formatSize(MAX_LINE_BYTES)} limit for one entry and was not saved`,
        });
        continue;
      }
      text += line;
    }
    if (text !== "") this.#writer.write(text);
  }

  flush(): Promise<void> {
    return this.#writer.flush();
  }

  async unsaved(): Promise<string | undefined> {
    return (await this.#writer.retry())?.message;
  }

  /** Takes the lock now; only "in use" is thrown: another failure (a read-only folder) is the first write's to report. */
  async claim(): Promise<void> {
    try {
      await this.#lockNow();
    } catch (error) {
      if (isKernelError(error) && error.code === ErrorCode.IN_USE) throw error;
    }
  }

  async close(): Promise<void> {
    await this.#writer.close();
    const lock = this.#lock;
    this.#lock = undefined;
    await (await lock?.catch(() => undefined))?.release();
  }

  async #lockNow(): Promise<void> {
    if (!this.#holder) return;
    this.#lock ??= lockSessionFile(this.file, this.#holder).then((lock) => {
      if (lock.recovered) this.#warn(`Took over the lock of ${lock.file}: its owner (pid ${lock.recovered.pid}) is no longer running`);
      return lock;
    });
    const pending = this.#lock;
    await pending.catch((error: unknown) => {
      if (this.#lock === pending) this.#lock = undefined;
      throw error;
    });
  }
}

/** An entry's line, or its size when the reader would refuse it (then it is not written: the file must stay loadable). */
function entryLine(entry: SessionEntry): string | { bytes: number } {
  const line = JSON.stringify(entry);
  if (line.length * 3 > MAX_LINE_BYTES && Buffer.byteLength(line, "utf8") > MAX_LINE_BYTES) return { bytes: Buffer.byteLength(line, "utf8") };
  return line + "\n";
}

/** The whole file: the header, then every entry that fits a line, in order (those that do not were reported when appended). */
function* wholeText(header: SessionHeader, entries: readonly SessionEntry[]): Generator<string> {
  yield JSON.stringify(header) + "\n";
  for (const entry of entries) {
    const line = entryLine(entry);
    if (typeof line === "string") yield line;
  }
}

export function createJsonlStore(options: JsonlStoreOptions): SessionStore {
  const { sessionDir, cwd, warn } = options;
  const now = options.now ?? (() => new Date());
  const listeners = new Set<StatusListener>();
  const status: StatusListener = (change) => {
    for (const listener of listeners) listener(change);
  };
  // This store's agent: one holder, so it may reopen a file it holds (switching to its own session).
  const holder = newLockHolder();
  const storage = (file: string, extra: { header?: SessionHeader; endsWithNewline?: boolean }) => new JsonlFileStorage(file, { ...extra, warn, status, holder });

  return {
    persistent: options.persistent,
    sessionDir: () => sessionDir,

    create(header) {
      return storage(join(sessionDir, sessionFileName(header.timestamp, header.id)), { header });
    },

    async load(path) {
      const file = resolve(cwd, expandHome(path));
      const { header, entries, endsWithNewline } = await readSessionFile(file, warn);
      return { file, header, entries, storage: storage(file, { endsWithNewline }) };
    },

    async startAt(path, header) {
      const file = resolve(cwd, expandHome(path));
      try {
        const info = await stat(file);
        // An empty regular file holds no session yet: the first write replaces it whole.
        if (!info.isFile() || info.size > 0) return undefined;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") return undefined;
      }
      return storage(file, { header });
    },

    async importCopy(source: LoadedSession): Promise<LoadedSession> {
      await makeFolder(sessionDir, 0o700);
      for (let attempt = 0; ; attempt++) {
        const stamp = new Date(now().getTime() + attempt).toISOString();
        const file = join(sessionDir, sessionFileName(stamp, source.header.id));
        try {
          // EXCL: never overwrite an existing session, even one with the same name.
          await copyFile(source.file, file, constants.COPYFILE_EXCL);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "EEXIST" && attempt < 1000) continue;
          throw error;
        }
        // copyFile keeps the source's mode; a session file is private.
        await chmod(file, 0o600);
        const endsWithNewline = !(await endsInTornLine(file));
        return { ...source, file, storage: storage(file, { endsWithNewline }) };
      }
    },

    checkWritable: () => checkWritable(sessionDir),

    onWriteStatus(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * Why session files cannot be created in `dir`, or undefined when they can. Nothing is created:
 * the nearest existing ancestor decides (`mkdir -p` would make the rest inside it).
 */
export async function checkWritable(dir: string): Promise<string | undefined> {
  const fail = (reason: string) => `Cannot write sessions to ${dir}: ${reason} (new entries are kept and written once it is fixed)`;
  for (let at = resolve(dir); ; at = dirname(at)) {
    let info;
    try {
      info = await stat(at);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code === "ENOENT" || code === "ENOTDIR") && dirname(at) !== at) continue;
      return fail(`${at} cannot be read (${code ?? String(error)})`);
    }
    if (!info.isDirectory()) return fail(`${at} is not a directory`);
    try {
      await access(at, constants.W_OK | constants.X_OK);
      return undefined;
    } catch (error) {
      return fail(`${at} is not writable (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  }
}

/** Whether the file's last byte is not "\n" (a torn last line): checks one byte, not the file. */
async function endsInTornLine(file: string): Promise<boolean> {
  const handle = await open(file, "r");
  try {
    const { size } = await handle.stat();
    if (size === 0) return false;
    const byte = Buffer.alloc(1);
    await handle.read(byte, 0, 1, size - 1);
    return byte[0] !== 0x0a;
  } finally {
    await handle.close();
  }
}
