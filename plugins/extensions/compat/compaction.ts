/**
 * pi's pure compaction arithmetic for extensions that plan their own compaction
 * (`session_before_compact` handlers): token estimates (4 characters a token, 1,200 per image),
 * the context a usage record stands for, when to compact, and where to cut a branch so that about
 * `keepRecentTokens` stay. Atomic's own compaction is its plugin's; these follow pi's rules.
 */
import { type SessionEntry, sessionEntryToContextMessages, type ContextMessage } from "./session-context.js";

export interface CompactionSettings {
  enabled: boolean;
  reserveTokens: number;
  keepRecentTokens: number;
}
export const DEFAULT_COMPACTION_SETTINGS: CompactionSettings = { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 };

type Usage = { input: number; output: number; cacheRead: number; cacheWrite: number; totalTokens?: number };

export function calculateContextTokens(usage: Usage): number {
  return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

/** The usage of the last assistant message that completed (not aborted, not an error, some tokens). */
export function getLastAssistantUsage(entries: SessionEntry[]): Usage | undefined {
  for (let index = entries.length - 1; index >= 0; index--) {
    const message = entries[index]!.type === "message" ? entries[index]!.message : undefined;
    if (message?.role === "assistant" && message.usage && message.stopReason !== "aborted" && message.stopReason !== "error" && calculateContextTokens(message.usage) > 0)
      return message.usage;
  }
  return undefined;
}

export function shouldCompact(contextTokens: number, contextWindow: number, settings: CompactionSettings): boolean {
  return settings.enabled && contextTokens > contextWindow - settings.reserveTokens;
}

const IMAGE_CHARS = 4800;
const contentChars = (content: unknown): number =>
  typeof content === "string"
    ? content.length
    : Array.isArray(content)
      ? content.reduce(
          (sum: number, part: { type?: string; text?: string }) => sum + (part?.type === "text" ? (part.text?.length ?? 0) : part?.type === "image" ? IMAGE_CHARS : 0),
          0,
        )
      : 0;

/** A message's tokens by pi's estimate: its characters / 4, rounded up (an image counts 4,800 characters). */
export function estimateTokens(message: ContextMessage): number {
  let chars = 0;
  switch (message.role) {
    case "system":
      chars = contentChars(message.content) + Object.values(message.sections ?? {}).reduce((sum: number, text) => sum + (typeof text === "string" ? text.length : 0), 0);
      if (message.toolsAdded) chars += JSON.stringify(message.toolsAdded).length;
      break;
    case "user":
    case "custom":
    case "toolResult":
      chars = contentChars(message.content);
      break;
    case "assistant":
      for (const part of message.content ?? [])
        chars +=
          part.type === "text"
            ? part.text.length
            : part.type === "thinking"
              ? part.thinking.length
              : part.type === "toolCall"
                ? part.name.length + JSON.stringify(part.arguments).length
                : 0;
      break;
    case "bashExecution":
      chars = String(message.command).length + String(message.output).length;
      break;
    case "branchSummary":
    case "compactionSummary":
      chars = String(message.summary).length;
      break;
    default:
      return 0;
  }
  return Math.ceil(chars / 4);
}

const TURN_STARTS = new Set(["user", "bashExecution", "custom", "branchSummary", "compactionSummary"]);
const startsTurn = (entry: SessionEntry) => entry.type !== "compaction" && sessionEntryToContextMessages(entry).some((message) => TURN_STARTS.has(message.role));
/** A tool result never starts what is kept: it must follow its call. */
const canCut = (entry: SessionEntry) =>
  entry.type !== "compaction" &&
  sessionEntryToContextMessages(entry).some((message) => message.role !== "toolResult" && (TURN_STARTS.has(message.role) || message.role === "assistant"));

/** The entry that starts the turn holding `entryIndex` (searching back to `startIndex`), or -1. */
export function findTurnStartIndex(entries: SessionEntry[], entryIndex: number, startIndex: number): number {
  for (let index = entryIndex; index >= startIndex; index--) if (startsTurn(entries[index]!)) return index;
  return -1;
}

/**
 * Where to cut entries [startIndex, endIndex) so about `keepRecentTokens` stay: counting back
 * from the newest, the first place one may cut at or after the point the budget is reached,
 * moved back over entries that add nothing to the context; and whether it splits a turn.
 */
export function findCutPoint(
  entries: SessionEntry[],
  startIndex: number,
  endIndex: number,
  keepRecentTokens: number,
): { firstKeptEntryIndex: number; turnStartIndex: number; isSplitTurn: boolean } {
  const cuts: number[] = [];
  for (let index = startIndex; index < endIndex; index++) if (canCut(entries[index]!)) cuts.push(index);
  if (cuts.length === 0) return { firstKeptEntryIndex: startIndex, turnStartIndex: -1, isSplitTurn: false };
  let cut = cuts[0]!;
  let tokens = 0;
  for (let index = endIndex - 1; index >= startIndex; index--) {
    const size = sessionEntryToContextMessages(entries[index]!).reduce((sum, message) => sum + estimateTokens(message), 0);
    if (size === 0) continue;
    tokens += size;
    if (tokens >= keepRecentTokens) {
      cut = cuts.find((candidate) => candidate >= index) ?? cuts.at(-1)!;
      break;
    }
  }
  while (cut > startIndex && entries[cut - 1]!.type !== "compaction" && sessionEntryToContextMessages(entries[cut - 1]!).length === 0) cut--;
  const starts = startsTurn(entries[cut]!);
  const turnStartIndex = starts ? -1 : findTurnStartIndex(entries, cut, startIndex);
  return { firstKeptEntryIndex: cut, turnStartIndex, isSplitTurn: !starts && turnStartIndex !== -1 };
}
