/**
 * The `session_before_compact` payload (pi's field names, so a pi extension that writes its own
 * compaction reads what it expects) and the reading of a tap's verdict.
 */
import type { AgentMessage } from "../../lib/llm/index.js";
import type { CompactionFileOps, CompactionPreparation, CompactionSettings, CompactVerdict } from "./api.js";
import type { SessionEntry } from "../session/api.js";
import { tailFrom, type Region, type VisibleMessage } from "./region.js";

/** A preparation for taps: a deep copy, frozen, so a tap cannot change what is compacted. */
export function frozenPreparation(region: Region, tokensBefore: number, settings: CompactionSettings, path: readonly SessionEntry[]) {
  const preparation: CompactionPreparation = {
    firstKeptEntryId: region.firstKeptEntryId,
    messagesToSummarize: region.messages,
    turnPrefixMessages: [],
    isSplitTurn: false,
    retainedTail: region.tail.map((item) => item.message),
    tokensBefore,
    fileOps: fileOperations(region.messages),
    settings,
    transcript: region.lines.join("\n"),
    lineCount: region.lines.length,
  };
  if (region.previousSummary !== undefined) preparation.previousSummary = region.previousSummary;
  // One clone for both, so messages shared between them stay shared.
  return deepFreeze(copyOf({ preparation, branchEntries: path as SessionEntry[] }));
}

/** A deep copy; data a structured clone refuses (a tool's details holding a function) goes through JSON. */
function copyOf<T extends { preparation: CompactionPreparation }>(value: T): T {
  try {
    return structuredClone(value);
  } catch {
    const copy = JSON.parse(JSON.stringify(value)) as T;
    copy.preparation.fileOps = fileOperations(copy.preparation.messagesToSummarize);
    return copy;
  }
}

/** Files the messages' tool calls read, wrote or edited (their `path` argument). */
export function fileOperations(messages: readonly AgentMessage[]): CompactionFileOps {
  const ops: CompactionFileOps = { read: new Set(), written: new Set(), edited: new Set() };
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    for (const block of message.content) {
      if (block.type !== "toolCall" || typeof block.arguments?.path !== "string") continue;
      const path = block.arguments.path;
      if (block.name === "read") ops.read.add(path);
      else if (block.name === "write") ops.written.add(path);
      else if (block.name === "edit") ops.edited.add(path);
    }
  }
  return ops;
}

export type TapDecision =
  | { kind: "none" }
  | { kind: "cancel" }
  | { kind: "text"; text: string; firstKeptEntryId: string | null; tail: VisibleMessage[]; details?: unknown }
  | { kind: "invalid"; reason: string };

/** What a tap's answer means: cancel, its own text (rung "extension"), or nothing (plan as usual). */
export function readVerdict(verdict: CompactVerdict | undefined, region: Region, path: readonly SessionEntry[]): TapDecision {
  if (!verdict) return { kind: "none" };
  if (verdict.cancel) return { kind: "cancel" };
  const supplied = verdict.compaction ? verdict.compaction.summary : verdict.compactedText;
  if (supplied === undefined) return { kind: "none" };
  if (typeof supplied !== "string" || supplied.trim() === "") return { kind: "invalid", reason: "session_before_compact returned a blank compacted text" };
  const decision: TapDecision = { kind: "text", text: supplied, firstKeptEntryId: region.firstKeptEntryId, tail: region.tail };
  const compaction = verdict.compaction;
  if (compaction?.details !== undefined) decision.details = compaction.details;
  if (compaction && compaction.firstKeptEntryId !== undefined && compaction.firstKeptEntryId !== region.firstKeptEntryId) {
    const id = compaction.firstKeptEntryId;
    if (id === null) return { ...decision, firstKeptEntryId: null, tail: [] };
    const tail = tailFrom(path, id);
    if (!tail) return { kind: "invalid", reason: `session_before_compact returned firstKeptEntryId ${id}, which is not on the current branch` };
    return { ...decision, firstKeptEntryId: id, tail };
  }
  return decision;
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  if (value instanceof Set) return value;
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return value;
}
