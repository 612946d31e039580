/**
 * Session files for pi's `SessionManager` in an extension: reading one whole (synchronously, by
 * blocks, as pi does), the default folder of a working directory, the most recent session there,
 * and the listing pi's `list`/`listAll` give.
 */
import { existsSync, openSync, readdirSync, readSync, closeSync, statSync } from "node:fs";
import { readFile, readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { StringDecoder } from "node:string_decoder";
import type { FileEntry, SessionEntry, SessionHeader } from "./session-context.js";

export interface SessionInfo {
  path: string;
  id: string;
  cwd: string;
  name?: string;
  parentSessionPath?: string;
  created: Date;
  modified: Date;
  messageCount: number;
  firstMessage: string;
  allMessagesText: string;
}

/** `<agent dir>/sessions/--<cwd with / \ : as ->--`, as Atomic's sessions are kept. */
export function defaultSessionDir(cwd: string, agentDir: string): string {
  return join(
    agentDir,
    "sessions",
    `--${resolve(cwd)
      .replace(/^[/\\]/, "")
      .replace(/[/\\:]/g, "-")}--`,
  );
}

function parseLine(line: string): FileEntry | undefined {
  if (!line.trim()) return undefined;
  try {
    const entry = JSON.parse(line) as FileEntry;
    return entry && typeof entry === "object" && typeof entry.type === "string" ? entry : undefined;
  } catch {
    return undefined;
  }
}

/** Every entry of a file (unparsable lines skipped), read in 1 MiB blocks; [] for a missing file. */
export function loadEntriesFromFile(path: string): FileEntry[] {
  if (!existsSync(path)) return [];
  const entries: FileEntry[] = [];
  const fd = openSync(path, "r");
  try {
    const decoder = new StringDecoder("utf8");
    const block = Buffer.allocUnsafe(1 << 20);
    let pending = "";
    for (let read = readSync(fd, block, 0, block.length, null); read > 0; read = readSync(fd, block, 0, block.length, null)) {
      pending += decoder.write(block.subarray(0, read));
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        const entry = parseLine(line);
        if (entry) entries.push(entry);
      }
    }
    const last = parseLine(pending + decoder.end());
    if (last) entries.push(last);
  } finally {
    closeSync(fd);
  }
  return entries;
}

/** The header (first line) of a session file, or undefined. */
export function readHeader(path: string): SessionHeader | undefined {
  const fd = openSync(path, "r");
  try {
    const block = Buffer.allocUnsafe(64 * 1024);
    const read = readSync(fd, block, 0, block.length, 0);
    const first = parseLine(block.subarray(0, read).toString("utf8").split("\n")[0] ?? "");
    return first?.type === "session" ? (first as SessionHeader) : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The newest `.jsonl` session in `dir` (by modification time), for `cwd` when given. */
export function findMostRecentSession(dir: string, cwd?: string): string | null {
  try {
    const files = readdirSync(dir)
      .filter((name) => name.endsWith(".jsonl"))
      .map((name) => ({ path: join(dir, name), mtime: statSync(join(dir, name)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime);
    for (const { path } of files) {
      const header = readHeader(path);
      if (header && (cwd === undefined || resolve(header.cwd ?? "") === resolve(cwd))) return path;
    }
  } catch {}
  return null;
}

function messageText(message: { content?: unknown }): string {
  const content = message.content;
  if (typeof content === "string") return content;
  return Array.isArray(content) ? content.map((part: { type?: string; text?: string }) => (part?.type === "text" ? (part.text ?? "") : "")).join(" ") : "";
}

async function sessionInfo(path: string): Promise<SessionInfo | null> {
  try {
    const [text, stats] = await Promise.all([readFile(path, "utf8"), stat(path)]);
    const lines = text.split("\n");
    const header = parseLine(lines[0] ?? "");
    if (header?.type !== "session") return null;
    const { id, cwd, timestamp, parentSession } = header as SessionHeader;
    let name: string | undefined;
    let messageCount = 0;
    let firstMessage = "";
    let lastActivity = 0;
    const texts: string[] = [];
    for (const line of lines.slice(1)) {
      const entry = parseLine(line) as SessionEntry | undefined;
      if (!entry) continue;
      if (entry.type === "session_info") name = entry.name?.trim() || undefined;
      if (entry.type !== "message") continue;
      messageCount++;
      const message = entry.message ?? {};
      const when = typeof message.timestamp === "number" ? message.timestamp : Date.parse(entry.timestamp);
      if (Number.isFinite(when)) lastActivity = Math.max(lastActivity, when);
      if (message.role !== "user" && message.role !== "assistant") continue;
      const said = messageText(message);
      if (!said) continue;
      texts.push(said);
      if (!firstMessage && message.role === "user") firstMessage = said;
    }
    const created = new Date(timestamp);
    return {
      path,
      id,
      cwd: typeof cwd === "string" ? cwd : "",
      ...(name !== undefined ? { name } : {}),
      ...(parentSession !== undefined ? { parentSessionPath: parentSession } : {}),
      created,
      modified: lastActivity > 0 ? new Date(lastActivity) : Number.isNaN(created.getTime()) ? stats.mtime : created,
      messageCount,
      firstMessage: firstMessage || "(no messages)",
      allMessagesText: texts.join(" "),
    };
  } catch {
    return null;
  }
}

/** The sessions in `dir`, newest first; `onProgress(loaded, total)` after each file. */
export async function listSessions(dir: string, onProgress?: (loaded: number, total: number) => void, signal?: AbortSignal): Promise<SessionInfo[]> {
  signal?.throwIfAborted();
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith(".jsonl"));
  } catch {
    return [];
  }
  const found: SessionInfo[] = [];
  for (const [index, name] of names.entries()) {
    signal?.throwIfAborted();
    const info = await sessionInfo(join(dir, name));
    if (info) found.push(info);
    onProgress?.(index + 1, names.length);
  }
  return found.sort((a, b) => b.modified.getTime() - a.modified.getTime());
}

/** Every session under `<agent dir>/sessions/` (each working directory's folder). */
export async function listAllSessions(sessionsRoot: string, onProgress?: (loaded: number, total: number) => void, signal?: AbortSignal): Promise<SessionInfo[]> {
  let folders: string[];
  try {
    folders = (await readdir(sessionsRoot, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory() || entry.isSymbolicLink())
      .map((entry) => join(sessionsRoot, entry.name));
  } catch {
    return [];
  }
  const all: SessionInfo[] = [];
  for (const folder of folders) all.push(...(await listSessions(folder, undefined, signal)));
  onProgress?.(all.length, all.length);
  return all.sort((a, b) => b.modified.getTime() - a.modified.getTime());
}
