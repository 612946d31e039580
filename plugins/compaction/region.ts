/**
 * What a compaction works on, read from the active branch: the region (the previous compaction's
 * text, then every context-visible message since its kept tail began) rendered as lines, and the
 * protected tail (the newest `preserve_recent` visible messages), which is never shown to the
 * planner and stays verbatim. Pure and linear in the branch length.
 */
import type { AgentMessage } from "../../lib/llm/index.js";
import type { CompactionEntry, SessionEntry } from "../session/api.js";
import { messageSections } from "../../lib/transcript/index.js";
import { estimateMessageTokens } from "../session/api.js";

/** Fewer lines than this is not worth a planner call (unless the context no longer fits). */
export const MIN_REGION_LINES = 20;
export const DEFAULT_QUERY = "the latest user request";

export interface VisibleMessage {
  entryId: string;
  message: AgentMessage;
}

export interface Region {
  /** The region text split on "\n"; the planner numbers them from 1. */
  lines: string[];
  /** The messages rendered into the region (after the previous compaction's text), oldest first. */
  messages: AgentMessage[];
  /** The protected tail, oldest first. */
  tail: VisibleMessage[];
  firstKeptEntryId: string | null;
  /** The previous compaction's text, which opens the region. */
  previousSummary?: string;
  /** Relevance focus for the planner: the override, else the newest user request. */
  query: string;
  /** Estimated tokens of the kept tail. */
  tailTokens: number;
}

/**
 * Splits the branch `path` (root -> leaf) into region and tail. A previous compaction on the path
 * (the last one) contributes its text; its own kept tail becomes region messages again.
 *
 * @example
 * const region = prepareRegion(session.branch(), 2); // region.lines, region.firstKeptEntryId
 */
export function prepareRegion(path: readonly SessionEntry[], preserveRecent: number, queryOverride?: string): Region {
  const previousIndex = lastCompactionIndex(path);
  const previous = previousIndex >= 0 ? (path[previousIndex] as CompactionEntry) : undefined;
  let start = previousIndex + 1;
  if (previous?.firstKeptEntryId) {
    const kept = indexOfId(path, previous.firstKeptEntryId, previousIndex);
    if (kept >= 0) start = kept;
  }

  const visible: { item: VisibleMessage; sections: string[] }[] = [];
  for (let i = start; i < path.length; i++) {
    const entry = path[i]!;
    if (entry.type !== "message") continue;
    const sections = messageSections(entry.message, "compacted");
    if (sections.length > 0) visible.push({ item: { entryId: entry.id, message: entry.message }, sections });
  }

  const keep = Math.min(preserveRecent, visible.length);
  const regionPart = visible.slice(0, visible.length - keep);
  const tail = visible.slice(visible.length - keep).map((v) => v.item);

  // Lines are collected directly (no 2 MB join and re-split): the summary's, then the sections
  // with an empty line between two sections.
  const lines: string[] = [];
  if (previous && previous.summary !== "") pushLines(lines, previous.summary);
  let first = true;
  for (const { sections } of regionPart) {
    for (const section of sections) {
      if (!first) lines.push("");
      first = false;
      pushLines(lines, section);
    }
  }
  const region: Region = {
    lines,
    messages: regionPart.map((v) => v.item.message),
    tail,
    firstKeptEntryId: tail[0]?.entryId ?? null,
    query: queryOverride?.trim() || latestUserRequest(path) || DEFAULT_QUERY,
    tailTokens: tail.reduce((sum, v) => sum + estimateMessageTokens(v.message), 0),
  };
  if (previous) region.previousSummary = previous.summary;
  return region;
}

function pushLines(lines: string[], text: string): void {
  let start = 0;
  for (let newline = text.indexOf("\n"); newline >= 0; newline = text.indexOf("\n", start)) {
    lines.push(text.slice(start, newline));
    start = newline + 1;
  }
  lines.push(text.slice(start));
}

function lastCompactionIndex(path: readonly SessionEntry[]): number {
  for (let i = path.length - 1; i >= 0; i--) if (path[i]!.type === "compaction") return i;
  return -1;
}

function indexOfId(path: readonly SessionEntry[], id: string, before: number): number {
  for (let i = 0; i < before; i++) if (path[i]!.id === id) return i;
  return -1;
}

/** The text of the newest user message on the path (the request the work is about). */
function latestUserRequest(path: readonly SessionEntry[]): string | undefined {
  for (let i = path.length - 1; i >= 0; i--) {
    const entry = path[i]!;
    if (entry.type !== "message" || entry.message.role !== "user") continue;
    const content = entry.message.content;
    const text = typeof content === "string" ? content : content.map((block) => (block.type === "text" ? block.text : "")).join("");
    if (text.trim() !== "") return text.trim();
  }
  return undefined;
}

/**
 * The visible messages of `path` from `entryId` on: the tail when a `session_before_compact` tap
 * moves where it starts. Undefined for an id not on the path.
 */
export function tailFrom(path: readonly SessionEntry[], entryId: string): VisibleMessage[] | undefined {
  const index = path.findIndex((entry) => entry.id === entryId);
  if (index < 0) return undefined;
  const tail: VisibleMessage[] = [];
  for (let i = index; i < path.length; i++) {
    const entry = path[i]!;
    if (entry.type === "message" && messageSections(entry.message, "compacted").length > 0) tail.push({ entryId: entry.id, message: entry.message });
  }
  return tail;
}

/**
 * pi 1.6's "session too small" rule: counting back from the newest visible message, the budget
 * `keepRecentTokens` is not reached before the oldest one, so pi's cut would keep everything.
 */
export function fitsInRecentBudget(region: Region, keepRecentTokens: number): boolean {
  const messages = [...region.messages, ...region.tail.map((item) => item.message)];
  let tokens = 0;
  for (let i = messages.length - 1; i > 0; i--) {
    tokens += estimateMessageTokens(messages[i]!);
    if (tokens >= keepRecentTokens) return false;
  }
  return true;
}
