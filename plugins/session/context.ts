/**
 * What the model sees: the messages, model and thinking level of the active branch
 * (root -> leaf), with the latest compaction on that path honoured. Linear in session size.
 */
import type { AgentMessage, CustomMessage } from "../../kernel/index.js";
import type { CompactionEntry, SessionContext, SessionEntry } from "./api.js";

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
    messages.push(compactionMessage(compaction));
    const keptFrom = keptStart(path, compaction, compactionIndex);
    if (keptFrom >= 0) pushMessages(messages, path, keptFrom, compactionIndex);
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
