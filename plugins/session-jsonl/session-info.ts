/**
 * A session file's listing facts (pi's SessionInfo) from one byte scan: lines are found with
 * `indexOf("\n")` on the raw bytes and classified by their `{"type":"..."` prefix, so only the
 * header, the first user message, `session_info` lines and the last message are parsed; a
 * 100,000-entry file costs one pass over its bytes, not 100,000 JSON.parse calls.
 */
import type { SessionInfo } from "../session/api.js";

// The `{"type":"<type>"` prefix every writer (ours, pi's) puts first, matched byte by byte in JS:
// a native call per line would cost more than the match itself.
const MESSAGE_LINE = Buffer.from('{"type":"message"');
const INFO_LINE = Buffer.from('{"type":"session_info"');
const ANY_TYPE_LINE = Buffer.from('{"type":"');
const NEWLINE = 0x0a;
/** A listing shows a preview: longer first messages are cut here. */
export const FIRST_MESSAGE_MAX_CHARS = 4096;

type Json = Record<string, unknown>;

/** The file's facts, or undefined when its first line is not a session header. */
export function scanSessionInfo(bytes: Buffer, path: string, mtime: Date): SessionInfo | undefined {
  let header: Json | undefined;
  let messageCount = 0;
  let firstMessage: string | undefined;
  let name: string | undefined;
  /** Start and end of every message line, for finding the last activity from the end. */
  const messages: number[] = [];
  for (let start = 0; start < bytes.length; ) {
    let end = bytes.indexOf(NEWLINE, start);
    const torn = end < 0;
    if (torn) end = bytes.length;
    const lineStart = start;
    start = end + 1;
    if (isBlank(bytes, lineStart, end)) continue;
    if (!header) {
      const record = parse(bytes, lineStart, end);
      if (record?.type !== "session" || typeof record.id !== "string") return undefined;
      header = record;
      continue;
    }
    // A torn last line (a crash mid-write) counts only if it is whole JSON after all.
    const type = torn ? (parse(bytes, lineStart, end)?.type as string | undefined) : typeOf(bytes, lineStart, end);
    if (type === "message") {
      messageCount++;
      messages.push(lineStart, end);
      if (firstMessage === undefined) firstMessage = userText(parse(bytes, lineStart, end));
    } else if (type === "session_info") {
      const entry = parse(bytes, lineStart, end);
      if (typeof entry?.name === "string") name = entry.name.trim() || undefined;
    }
  }
  if (!header) return undefined;
  const created = validDate(header.timestamp) ?? mtime;
  const info: SessionInfo = {
    path,
    id: header.id as string,
    cwd: typeof header.cwd === "string" ? header.cwd : "",
    created: created.toISOString(),
    modified: (lastActivity(bytes, messages) ?? validDate(header.timestamp) ?? mtime).toISOString(),
    messageCount,
    firstMessage: firstMessage === undefined ? "(no messages)" : preview(firstMessage),
  };
  if (name !== undefined) info.name = name;
  if (typeof header.parentSession === "string") info.parentSessionPath = header.parentSession;
  return info;
}

/** "message", "session_info" or "other" (not needed) from the prefix; a line with its keys in another order is parsed. */
function typeOf(bytes: Buffer, start: number, end: number): string | undefined {
  // Each prefix ends with the closing quote, so `"messages"` is not `"message"`.
  if (startsWith(bytes, start, end, MESSAGE_LINE)) return "message";
  if (startsWith(bytes, start, end, INFO_LINE)) return "session_info";
  if (startsWith(bytes, start, end, ANY_TYPE_LINE)) return "other";
  const record = parse(bytes, start, end);
  return typeof record?.type === "string" ? record.type : undefined;
}

function startsWith(bytes: Buffer, start: number, end: number, prefix: Buffer): boolean {
  if (end - start <= prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[start + i] !== prefix[i]) return false;
  return true;
}

/** The newest user/assistant message time, scanning message lines from the end. */
function lastActivity(bytes: Buffer, messages: readonly number[]): Date | undefined {
  for (let i = messages.length - 2; i >= 0; i -= 2) {
    const entry = parse(bytes, messages[i]!, messages[i + 1]!);
    const message = entry?.message as Json | undefined;
    if (!message || (message.role !== "user" && message.role !== "assistant") || !("content" in message)) continue;
    if (typeof message.timestamp === "number" && message.timestamp > 0) return new Date(message.timestamp);
    const when = validDate(entry!.timestamp);
    if (when) return when;
  }
  return undefined;
}

/** The text of a user message entry, or undefined (another role, or no text). */
function userText(entry: Json | undefined): string | undefined {
  const message = entry?.message as Json | undefined;
  if (message?.role !== "user") return undefined;
  const content = message.content;
  const text = typeof content === "string" ? content : Array.isArray(content) ? content.filter((b): b is Json => typeof b === "object" && b !== null && b.type === "text" && typeof b.text === "string").map((b) => b.text as string).join(" ") : "";
  return text === "" ? undefined : text;
}

function preview(text: string): string {
  return text.length > FIRST_MESSAGE_MAX_CHARS ? `${text.slice(0, FIRST_MESSAGE_MAX_CHARS)}…` : text;
}

function parse(bytes: Buffer, start: number, end: number): Json | undefined {
  try {
    const value: unknown = JSON.parse(bytes.toString("utf8", start, end));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

function isBlank(bytes: Buffer, start: number, end: number): boolean {
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
