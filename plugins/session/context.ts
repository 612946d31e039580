/**
 * What the model sees: the messages, model and thinking level of the active branch
 * (root -> leaf), with the latest compaction on that path honoured. Linear in session size.
 */
import type { AgentMessage, CustomMessage, ImageContent } from "../../lib/llm/index.js";
import { renderTranscript } from "../../lib/transcript/index.js";
import type { CompactionEntry, SessionContext, SessionEntry } from "./api.js";

/** `details.strategy` of a verbatim-line compaction (plugin `compaction`). */
export const VERBATIM_STRATEGY = "verbatim-lines";

/** Opens a verbatim boundary, so the model reads what follows as its own earlier conversation. */
export const VERBATIM_PREFIX =
  'Earlier parts of this conversation were compacted. What follows is the transcript of the lines that were kept, word for word; each removed span is marked "(filtered N lines)".\n\n';

/**
 * Builds the context of the branch ending at `leafId`. A null leaf gives an empty context; an
 * unknown leaf falls back to the last entry (the leaf a reload would pick).
 *
 * @example
 * const { messages, model, thinkingLevel } = buildSessionContext(entries, leafId);
 */
export function buildSessionContext(entries: readonly SessionEntry[], leafId: string | null): SessionContext {
  if (leafId === null || entries.length === 0) return { messages: [], model: null, thinkingLevel: null };
  return contextFromPath(branchPath(entries, leafId));
}

/** Root -> leaf path through `entries`; parents must precede children (see tree.ts). */
export function branchPath(entries: readonly SessionEntry[], leafId: string): SessionEntry[] {
  const indexById = new Map<string, number>();
  for (let i = 0; i < entries.length; i++) if (!indexById.has(entries[i]!.id)) indexById.set(entries[i]!.id, i);
  let index: number | undefined = indexById.get(leafId) ?? entries.length - 1;
  const path: SessionEntry[] = [];
  while (index !== undefined) {
    const entry: SessionEntry = entries[index]!;
    path.push(entry);
    const parent: number | undefined = entry.parentId === null ? undefined : indexById.get(entry.parentId);
    index = parent !== undefined && parent < index ? parent : undefined;
  }
  return path.reverse();
}

/** Context of an already-resolved root -> leaf path. */
export function contextFromPath(path: readonly SessionEntry[]): SessionContext {
  let model: SessionContext["model"] = null;
  let thinkingLevel: SessionContext["thinkingLevel"] = null;
  let compactionIndex = -1;
  path.forEach((entry, index) => {
    if (entry.type === "model_change") model = { provider: entry.provider, modelId: entry.modelId };
    else if (entry.type === "thinking_level_change") thinkingLevel = entry.thinkingLevel;
    else if (entry.type === "compaction") compactionIndex = index;
    else if (entry.type === "message" && entry.message.role === "assistant") {
      // The model that actually answered last is the one the branch was using.
      model = { provider: entry.message.provider, modelId: entry.message.model };
    }
  });

  const messages: AgentMessage[] = [];
  let start = 0;
  if (compactionIndex >= 0) {
    const compaction = path[compactionIndex] as CompactionEntry;
    const keptFrom = keptStart(path, compaction, compactionIndex);
    if (isVerbatim(compaction)) {
      // The kept tail is shown as transcript text after the compacted lines: with no turn
      // alignment it may open with tool results whose calls were compacted away, which a
      // provider would refuse (or the converter drop) as real messages.
      const tail: AgentMessage[] = [];
      if (keptFrom >= 0) pushMessages(tail, path, keptFrom, compactionIndex);
      messages.push(verbatimMessage(compaction, tail));
    } else {
      messages.push(compactionMessage(compaction));
      if (keptFrom >= 0) pushMessages(messages, path, keptFrom, compactionIndex);
    }
    start = compactionIndex + 1;
  }
  pushMessages(messages, path, start, path.length);
  return { messages, model, thinkingLevel };
}

function keptStart(path: readonly SessionEntry[], compaction: CompactionEntry, compactionIndex: number): number {
  if (compaction.firstKeptEntryId === null) return -1;
  for (let i = 0; i < compactionIndex; i++) if (path[i]!.id === compaction.firstKeptEntryId) return i;
  return -1;
}

function pushMessages(out: AgentMessage[], path: readonly SessionEntry[], from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const entry = path[i]!;
    if (entry.type === "message") out.push(entry.message);
  }
}

function isVerbatim(entry: CompactionEntry): boolean {
  const details = entry.details;
  return typeof details === "object" && details !== null && (details as { strategy?: unknown }).strategy === VERBATIM_STRATEGY;
}

/** One message: prefix, the compacted text, then the kept tail (its images as extra blocks). */
function verbatimMessage(entry: CompactionEntry, tail: readonly AgentMessage[]): CustomMessage {
  const images: ImageContent[] = [];
  const tailText = renderTranscript(tail, "retained", images);
  const text = VERBATIM_PREFIX + entry.summary + (entry.summary !== "" && tailText !== "" ? "\n\n" : "") + tailText;
  const message = compactionMessage(entry);
  message.content = images.length === 0 ? text : [{ type: "text", text }, ...images];
  return message;
}

function compactionMessage(entry: CompactionEntry): CustomMessage {
  const message: CustomMessage = {
    role: "custom",
    customType: "compaction",
    content: entry.summary,
    display: true,
    timestamp: Date.parse(entry.timestamp) || 0,
  };
  if (entry.details !== undefined) message.details = entry.details;
  return message;
}
