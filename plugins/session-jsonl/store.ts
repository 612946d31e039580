/**
 * The JSONL session store: one file per session, a header line then one entry per line. A new
 * session's file is created by its first append (header + entries in one write).
 */
import { constants } from "node:fs";
import { copyFile, mkdir, open } from "node:fs/promises";
import { join, resolve } from "node:path";
import { expandHome } from "../../kernel/index.js";
import type { LoadedSession, SessionEntry, SessionHeader, SessionStorage, SessionStore } from "../session/api.js";
import { sessionFileName } from "./paths.js";
import { readSessionFile } from "./reader.js";
import { JsonlWriter } from "./writer.js";

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

/** Appends entries of one session to its file; the header goes first when the file is new. */
export class JsonlFileStorage implements SessionStorage {
  readonly file: string;
  readonly #writer: JsonlWriter;
  #header: SessionHeader | undefined;

  constructor(file: string, options: { header?: SessionHeader; endsWithNewline?: boolean; warn: (message: string) => void }) {
    this.file = file;
    this.#header = options.header;
    this.#writer = new JsonlWriter(file, {
      prefix: options.endsWithNewline === false ? "\n" : "",
      onError: (error) => options.warn(`Cannot write session file ${file}: ${error.message}`),
    });
  }

  append(entries: readonly SessionEntry[]): void {
    if (entries.length === 0) return;
    let text = "";
    if (this.#header) {
      text = JSON.stringify(this.#header) + "\n";
      this.#header = undefined;
    }
    for (const entry of entries) text += JSON.stringify(entry) + "\n";
    this.#writer.write(text);
  }

  flush(): Promise<void> {
    return this.#writer.flush();
  }

  close(): Promise<void> {
    return this.#writer.close();
  }
}

export function createJsonlStore(options: JsonlStoreOptions): SessionStore {
  const { sessionDir, cwd, warn } = options;
  const now = options.now ?? (() => new Date());

  return {
    persistent: options.persistent,
    sessionDir: () => sessionDir,

    create(header) {
      return new JsonlFileStorage(join(sessionDir, sessionFileName(header.timestamp, header.id)), { header, warn });
    },

    async load(path) {
      const file = resolve(cwd, expandHome(path));
      const { header, entries, endsWithNewline } = await readSessionFile(file, warn);
      return { file, header, entries, storage: new JsonlFileStorage(file, { endsWithNewline, warn }) };
    },

    async importCopy(source: LoadedSession): Promise<LoadedSession> {
      await mkdir(sessionDir, { recursive: true });
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
        const endsWithNewline = !(await endsInTornLine(file));
        return { ...source, file, storage: new JsonlFileStorage(file, { endsWithNewline, warn }) };
      }
    },
  };
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
