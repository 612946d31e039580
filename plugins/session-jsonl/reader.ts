/**
 * Reads a session file in one linear pass. Unparsable lines (typically the torn last line of a
 * crash) and entries of an unusable shape are skipped with one warning; everything else is
 * kept. A first line that is not a session header makes the whole file invalid.
 */
import { readFile, stat } from "node:fs/promises";
import { ErrorCode, KernelError } from "../../kernel/index.js";
import type { SessionEntry, SessionHeader } from "../session/api.js";
import { hasValidShape } from "./entry-shape.js";

export interface ReadResult {
  header: SessionHeader;
  entries: SessionEntry[];
  /** False when the file ends without "\n" (a torn line): the next append starts a new line. */
  endsWithNewline: boolean;
}

export async function readSessionFile(path: string, warn: (message: string) => void): Promise<ReadResult> {
  let text: string;
  try {
    // Only regular files: a FIFO or a device would block the command lane (or never end).
    if (!(await stat(path)).isFile()) throw invalid(path);
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new KernelError(ErrorCode.NOT_FOUND, `File not found: ${path}`);
    if (code === "EISDIR") throw invalid(path);
    throw error;
  }
  return parseSessionText(text, path, warn);
}

export function parseSessionText(text: string, path: string, warn: (message: string) => void): ReadResult {
  const entries: SessionEntry[] = [];
  const seen = new Set<string>();
  let header: SessionHeader | undefined;
  let skipped = 0;
  let lastSkipped = false;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    const line = text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end);
    start = end + 1;
    if (line.trim() === "") continue;
    const record = parseLine(line);
    if (!header) {
      if (!isHeader(record)) throw invalid(path);
      header = record;
      continue;
    }
    if (!isEntry(record) || seen.has(record.id)) {
      skipped++;
      lastSkipped = true;
      continue;
    }
    lastSkipped = false;
    seen.add(record.id);
    if (record.parentId === undefined) record.parentId = null;
    entries.push(record);
  }
  if (!header) throw invalid(path);
  if (skipped > 0) {
    const what = skipped === 1 && lastSkipped ? "a torn last line" : `${skipped} unreadable line(s)`;
    warn(`Skipped ${what} in session file ${path}`);
  }
  return { header, entries, endsWithNewline: text.length === 0 || text.endsWith("\n") };
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function isHeader(record: unknown): record is SessionHeader {
  return isObject(record) && record.type === "session" && typeof record.id === "string";
}

function isEntry(record: unknown): record is SessionEntry {
  return (
    isObject(record) &&
    typeof record.type === "string" &&
    record.type !== "session" &&
    typeof record.id === "string" &&
    (record.parentId === undefined || record.parentId === null || typeof record.parentId === "string") &&
    hasValidShape(record)
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function invalid(path: string): KernelError {
  return new KernelError(ErrorCode.INVALID_INPUT, `Not a valid session file: ${path}`);
}
