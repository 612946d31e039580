/**
 * The file side of pi's `SessionManager` (session-manager.ts): names and ids of session files,
 * finding, forking and listing them, and writing a whole file in one go. Synchronous, as pi's is.
 */
import { closeSync, openSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { uuidv7 } from "./pi-ai.js";
import { CURRENT_SESSION_VERSION, type FileEntry, type SessionHeader } from "./session-context.js";
import { loadEntriesFromFile, readHeader } from "./session-files.js";
import { makeFolderSync } from "../../../lib/make-folder/index.js";

export interface NewSessionOptions {
  id?: string;
  parentSession?: string;
}

const SESSION_ID = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

export const now = () => new Date().toISOString();
export const sessionFileName = (timestamp: string, id: string) => `${timestamp.replace(/[:.]/g, "-")}_${id}.jsonl`;

/** A session id a caller chose, checked as pi checks it. */
export function checkedId(id: string | undefined): string | undefined {
  if (id !== undefined && !SESSION_ID.test(id))
    throw new Error("Session id must be non-empty, contain only alphanumeric characters, '-', '_', and '.', and start and end with an alphanumeric character");
  return id;
}

/** Writes every entry, one JSON line each; `wx` fails rather than replace an existing file. */
export function writeLines(path: string, entries: readonly FileEntry[], flags: "w" | "wx"): void {
  const fd = openSync(path, flags);
  try {
    writeFileSync(fd, entries.map((entry) => `${JSON.stringify(entry)}\n`).join(""));
  } finally {
    closeSync(fd);
  }
}

/** A new file in `dir` holding a copy of `sourcePath`'s entries under a new header; its path. */
export function forkSessionFile(sourcePath: string, cwd: string, dir: string, options?: NewSessionOptions): string {
  const source = resolve(sourcePath);
  const entries = loadEntriesFromFile(source);
  if (entries.length === 0) throw new Error(`Cannot fork: source session file is empty or invalid: ${source}`);
  if (!entries.some((entry) => entry.type === "session")) throw new Error(`Cannot fork: source session has no header: ${source}`);
  makeFolderSync(dir);
  const id = checkedId(options?.id) ?? uuidv7();
  const timestamp = now();
  const file = join(dir, sessionFileName(timestamp, id));
  const header: SessionHeader = { type: "session", version: CURRENT_SESSION_VERSION, id, timestamp, cwd, parentSession: source };
  writeLines(file, [header, ...entries.filter((entry) => entry.type !== "session")], "wx");
  return file;
}

/** The file in `dir` whose header has `id` (and, when `cwd` is given, that cwd). */
export function findSessionFile(dir: string, id: string, cwd: string | undefined): string | undefined {
  try {
    for (const file of readdirSync(dir)
      .filter((name) => name.endsWith(".jsonl"))
      .map((name) => join(dir, name))) {
      const header = readHeader(file);
      if (header?.id === id && (cwd === undefined || resolve(header.cwd) === resolve(cwd))) return file;
    }
  } catch {}
  return undefined;
}
