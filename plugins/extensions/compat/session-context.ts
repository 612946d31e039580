/**
 * pi's pure session helpers over entries as its session files hold them (Atomic writes the same
 * format): parsing and migrating a file's lines, the branch a leaf ends, and the context a branch
 * gives the model (the latest compaction's summary, then what it kept, with context edits applied).
 */
import { randomUUID } from "node:crypto";

/** Entries as read from a file: pi's shapes, unchecked (a hand-edited file may hold anything). */
export type SessionEntry = { type: string; id: string; parentId: string | null; timestamp: string; [field: string]: any };
export interface SessionHeader {
  type: "session";
  version?: number;
  id: string;
  timestamp: string;
  cwd: string;
  parentSession?: string;
}
export type FileEntry = SessionHeader | SessionEntry;
export type ContextMessage = { role: string; [field: string]: any };
export interface SessionProjection {
  entries: { sourceEntry: SessionEntry; messages: ContextMessage[] }[];
  messages: ContextMessage[];
  thinkingLevel: string;
  model: { provider: string; modelId: string } | null;
}
export interface SessionContext {
  messages: ContextMessage[];
  thinkingLevel: string;
  model: { provider: string; modelId: string } | null;
}

export const CURRENT_SESSION_VERSION = 3;

/** An 8-hex id not yet in `taken` (a full UUID after 100 clashes). */
export function newEntryId(taken: { has(id: string): boolean }): string {
  for (let attempt = 0; attempt < 100; attempt++) {
    const id = randomUUID().slice(0, 8);
    if (!taken.has(id)) return id;
  }
  return randomUUID();
}

/** One entry per JSON line; lines that do not parse are skipped. */
export function parseSessionEntries(content: string): FileEntry[] {
  const entries: FileEntry[] = [];
  for (const line of String(content).trim().split("\n")) {
    if (!line.trim()) continue;
    try {
      entries.push(JSON.parse(line) as FileEntry);
    } catch {}
  }
  return entries;
}

/**
 * Brings entries of an older file format to the current one, in place: version 1 had no tree
 * (each entry gets an id and its predecessor as parent; a compaction's kept index becomes an id),
 * version 2 named custom messages `hookMessage`. Returns whether anything changed.
 */
export function migrateSessionEntries(entries: FileEntry[]): boolean {
  const header = entries.find((entry) => entry.type === "session") as SessionHeader | undefined;
  const version = header?.version ?? 1;
  if (version >= CURRENT_SESSION_VERSION) return false;
  if (version < 2) {
    const ids = new Set<string>();
    let previous: string | null = null;
    for (const entry of entries as SessionEntry[]) {
      if (entry.type === "session") continue;
      entry.id = newEntryId(ids);
      ids.add(entry.id);
      entry.parentId = previous;
      previous = entry.id;
    }
    for (const entry of entries as SessionEntry[]) {
      if (entry.type !== "compaction" || typeof entry.firstKeptEntryIndex !== "number") continue;
      const kept = entries[entry.firstKeptEntryIndex] as SessionEntry | undefined;
      if (kept && kept.type !== "session") entry.firstKeptEntryId = kept.id;
      delete entry.firstKeptEntryIndex;
    }
  }
  for (const entry of entries as SessionEntry[]) if (entry.type === "message" && entry.message?.role === "hookMessage") entry.message.role = "custom";
  if (header) header.version = CURRENT_SESSION_VERSION;
  return true;
}

export function getLatestCompactionEntry(entries: SessionEntry[]): SessionEntry | null {
  for (let index = entries.length - 1; index >= 0; index--) if (entries[index]!.type === "compaction") return entries[index]!;
  return null;
}

const at = (timestamp: string) => new Date(timestamp).getTime();

/** The messages one entry puts in the model's context (a plain custom entry: none). */
export function sessionEntryToContextMessages(entry: SessionEntry): ContextMessage[] {
  switch (entry.type) {
    case "message": {
      const message = entry.message as ContextMessage;
      if (message.role === "system" && message.content == null) return [{ ...message, content: "" }];
      if (["user", "assistant", "toolResult"].includes(message.role) && message.content == null) return [{ ...message, content: [] }];
      return [message];
    }
    case "custom_message":
      return [{ role: "custom", customType: entry.customType, content: entry.content ?? [], display: entry.display, details: entry.details, timestamp: at(entry.timestamp) }];
    case "branch_summary":
      return entry.summary ? [{ role: "branchSummary", summary: entry.summary, fromId: entry.fromId, timestamp: at(entry.timestamp) }] : [];
    case "compaction": {
      const summary = { role: "compactionSummary", summary: entry.summary, tokensBefore: entry.tokensBefore, timestamp: at(entry.timestamp) };
      return entry.systemMessage ? [entry.systemMessage, summary] : [summary];
    }
    default:
      return [];
  }
}

function indexOf(entries: SessionEntry[], byId?: Map<string, SessionEntry>): Map<string, SessionEntry> {
  return byId ?? new Map(entries.map((entry) => [entry.id, entry]));
}

/** Root to `leafId` (default: the last entry; null: nothing). */
function branchTo(entries: SessionEntry[], leafId: string | null | undefined, byId?: Map<string, SessionEntry>): SessionEntry[] {
  if (leafId === null) return [];
  const index = indexOf(entries, byId);
  const path: SessionEntry[] = [];
  for (let entry = (leafId ? index.get(leafId) : undefined) ?? entries.at(-1); entry; entry = entry.parentId ? index.get(entry.parentId) : undefined) path.push(entry);
  return path.reverse();
}

/**
 * The branch as the model sees it: without a compaction, all of it; with one, the latest
 * compaction, then the entries from its first kept one (system messages left out: the compaction
 * carries its own), then everything after it.
 */
export function buildContextEntries(entries: SessionEntry[], leafId?: string | null, byId?: Map<string, SessionEntry>): SessionEntry[] {
  const path = branchTo(entries, leafId, byId);
  const cut = path.findLastIndex((entry) => entry.type === "compaction");
  if (cut < 0) return path;
  const compaction = path[cut]!;
  const first = path.findIndex((entry, index) => index < cut && entry.id === compaction.firstKeptEntryId);
  const kept = first < 0 ? [] : path.slice(first, cut).filter((entry) => !(entry.type === "message" && entry.message?.role === "system"));
  return [compaction, ...kept, ...path.slice(cut + 1)];
}

/** An entry's messages with its latest context edit applied (null replacement: removed). */
export function edited(entry: SessionEntry, edit: SessionEntry | undefined): ContextMessage[] {
  const messages = sessionEntryToContextMessages(entry);
  if (!edit) return messages;
  if (edit.replacement === null) return [];
  const content = edit.replacement.content;
  return messages.map((message) => {
    if (!["user", "assistant", "toolResult", "custom"].includes(message.role)) return message;
    const wrapped = (message.role === "assistant" || message.role === "toolResult") && typeof content === "string" ? [{ type: "text", text: content }] : content;
    return { ...message, content: wrapped };
  });
}

export function buildSessionProjection(entries: SessionEntry[], leafId?: string | null, byId?: Map<string, SessionEntry>): SessionProjection {
  let thinkingLevel = "off";
  let model: SessionProjection["model"] = null;
  for (const entry of branchTo(entries, leafId, byId)) {
    if (entry.type === "thinking_level_change") thinkingLevel = entry.thinkingLevel;
    else if (entry.type === "model_change") model = { provider: entry.provider, modelId: entry.modelId };
    else if (entry.type === "message" && entry.message?.role === "assistant") model = { provider: entry.message.provider, modelId: entry.message.model };
  }
  const context = buildContextEntries(entries, leafId, byId);
  const edits = new Map(context.filter((entry) => entry.type === "context_edit").map((entry) => [entry.targetId as string, entry]));
  // Only the newest compaction (first) speaks; an older one kept inside the range adds nothing.
  const projected = context.map((sourceEntry, index) => ({
    sourceEntry,
    messages: sourceEntry.type === "compaction" && index > 0 ? [] : edited(sourceEntry, edits.get(sourceEntry.id)),
  }));
  return { entries: projected, messages: projected.flatMap((entry) => entry.messages), thinkingLevel, model };
}

export function buildSessionContext(entries: SessionEntry[], leafId?: string | null, byId?: Map<string, SessionEntry>): SessionContext {
  const { messages, thinkingLevel, model } = buildSessionProjection(entries, leafId, byId);
  return { messages, thinkingLevel, model };
}
