/**
 * A session file's listing facts (pi's SessionInfo) from one pass over its lines: each line is
 * classified by its `{"type":"..."` prefix on the raw bytes, so only the header, the first user
 * message, `session_info` lines and the last user/assistant message are parsed; a 100,000-entry
 * file costs one pass over its bytes, not 100,000 JSON.parse calls. `InfoScan` is fed line by
 * line (by `scanSessionInfo` from bytes in memory, by `readSessionInfo` from a file in blocks).
 */
import { oneLineName, type SessionInfo } from "../session/api.js";

// The `{"type":"<type>"` prefix every writer (ours, pi's) puts first, matched byte by byte in JS:
// a native call per line would cost more than the match itself.
const MESSAGE_LINE = Buffer.from('{"type":"message"');
const INFO_LINE = Buffer.from('{"type":"session_info"');
const ANY_TYPE_LINE = Buffer.from('{"type":"');
const NEWLINE = 0x0a;
/** Enough of a line's start to tell its kind from the prefix. */
export const KIND_PREFIX_BYTES = 64;
/** A listing shows a preview: longer first messages are cut here. */
export const FIRST_MESSAGE_MAX_CHARS = 4096;

type Json = Record<string, unknown>;

/** What a line's prefix says: a message, a session_info, another type, or "unordered" (keys in another order: parse it). */
export type LineKind = "message" | "session_info" | "other" | "unordered";

/** The kind of the line starting at `start` (at least KIND_PREFIX_BYTES of it, or all of it, in `bytes`). */
export function kindOf(bytes: Buffer, start: number, end: number): LineKind {
  // Each prefix ends with the closing quote, so `"messages"` is not `"message"`.
  if (startsWith(bytes, start, end, MESSAGE_LINE)) return "message";
  if (startsWith(bytes, start, end, INFO_LINE)) return "session_info";
  if (startsWith(bytes, start, end, ANY_TYPE_LINE)) return "other";
  return "unordered";
}

/** The facts gathered so far, line by line; offsets are the line's place in the file. */
export class InfoScan {
  header: Json | undefined;
  messageCount = 0;
  firstMessage: string | undefined;
  name: string | undefined;
  /** Start and end of every message line, for finding the last activity from the end. */
  readonly messages: number[] = [];

  /** Whether a line of this kind must be parsed: its whole text is then passed to `line`. */
  wants(kind: LineKind): boolean {
    return !this.header || kind === "unordered" || kind === "session_info" || (kind === "message" && this.firstMessage === undefined);
  }

  /**
   * One line, blank lines excluded: `bytes[start, end)` holds it whole when `wants(kind)`, else
   * possibly nothing. `torn` marks a last line without "\n" (passed whole): it counts only when it
   * is whole JSON after all. False when the file is no session (its first line is no header).
   */
  line(kind: LineKind, bytes: Buffer | undefined, start: number, end: number, at: number, torn = false): boolean {
    if (!this.header) {
      const record = bytes && parse(bytes, start, end);
      if (record?.type !== "session" || typeof record.id !== "string") return false;
      this.header = record;
      return true;
    }
    const record = torn || kind === "unordered" ? bytes && parse(bytes, start, end) : undefined;
    const type = torn || kind === "unordered" ? (record?.type as string | undefined) : kind;
    if (type === "message") {
      this.messageCount++;
      this.messages.push(at, at + end - start);
      if (this.firstMessage === undefined && bytes) this.firstMessage = userText(record ?? parse(bytes, start, end));
    } else if (type === "session_info") {
      const entry = record ?? (bytes && parse(bytes, start, end));
      if (typeof entry?.name === "string") this.name = oneLineName(entry.name);
    }
    return true;
  }

  /** The SessionInfo, given the last activity (found by the caller from `messages`). */
  info(path: string, mtime: Date, lastActivity: Date | undefined): SessionInfo | undefined {
    const header = this.header;
    if (!header) return undefined;
    const headerTime = validDate(header.timestamp);
    const info: SessionInfo = {
      path,
      id: header.id as string,
      cwd: typeof header.cwd === "string" ? header.cwd : "",
      created: (headerTime ?? mtime).toISOString(),
      modified: (lastActivity ?? headerTime ?? mtime).toISOString(),
      messageCount: this.messageCount,
      firstMessage: this.firstMessage === undefined ? "(no messages)" : preview(this.firstMessage),
    };
    if (this.name !== undefined) info.name = this.name;
    if (typeof header.parentSession === "string") info.parentSessionPath = header.parentSession;
    return info;
  }
}

/** The file's facts from its bytes in memory, or undefined when its first line is not a session header. */
export function scanSessionInfo(bytes: Buffer, path: string, mtime: Date): SessionInfo | undefined {
  const scan = new InfoScan();
  for (let start = 0; start < bytes.length; ) {
    let end = bytes.indexOf(NEWLINE, start);
    const torn = end < 0;
    if (torn) end = bytes.length;
    const lineStart = start;
    start = end + 1;
    if (isBlank(bytes, lineStart, end)) continue;
    if (!scan.line(kindOf(bytes, lineStart, end), bytes, lineStart, end, lineStart, torn)) return undefined;
  }
  let last: Date | undefined;
  for (let i = scan.messages.length - 2; i >= 0 && !last; i -= 2) last = activityTime(parse(bytes, scan.messages[i]!, scan.messages[i + 1]!));
  return scan.info(path, mtime, last);
}

/** When a message entry was user or assistant activity: its message's time, else the entry's; else undefined. */
export function activityTime(entry: Json | undefined): Date | undefined {
  const message = entry?.message as Json | undefined;
  if (!message || (message.role !== "user" && message.role !== "assistant") || !("content" in message)) return undefined;
  if (typeof message.timestamp === "number" && message.timestamp > 0) return new Date(message.timestamp);
  return validDate(entry!.timestamp);
}

/** The text of a user message entry, or undefined (another role, or no text). */
function userText(entry: Json | undefined): string | undefined {
  const message = entry?.message as Json | undefined;
  if (message?.role !== "user") return undefined;
  const content = message.content;
  const text =
    typeof content === "string"
      ? content
      : Array.isArray(content)
        ? content
            .filter((b): b is Json => typeof b === "object" && b !== null && b.type === "text" && typeof b.text === "string")
            .map((b) => b.text as string)
            .join(" ")
        : "";
  return text === "" ? undefined : text;
}

function preview(text: string): string {
  return text.length > FIRST_MESSAGE_MAX_CHARS ? `${text.slice(0, FIRST_MESSAGE_MAX_CHARS)}…` : text;
}

function startsWith(bytes: Buffer, start: number, end: number, prefix: Buffer): boolean {
  if (end - start <= prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[start + i] !== prefix[i]) return false;
  return true;
}

export function parse(bytes: Buffer, start: number, end: number): Json | undefined {
  try {
    const value: unknown = JSON.parse(bytes.toString("utf8", start, end));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

export function isBlank(bytes: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const byte = bytes[i]!;
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  }
  return true;
}

function validDate(value: unknown): Date | undefined {
  if (typeof value !== "string") return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
