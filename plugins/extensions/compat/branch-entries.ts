/**
 * pi's branch-summary preparation for extensions (tree navigation, `session_before_tree`
 * handlers, their own summaries): which entries a move from one leaf to another abandons, and
 * those entries as messages within a token budget, with the files their tool calls read or
 * changed. Pure: the LLM calls are in `summaries.ts`.
 */
import { estimateTokens } from "./compaction.js";
import { type ContextMessage, edited, type SessionEntry, sessionEntryToContextMessages } from "./session-context.js";

/** Paths the conversation read, wrote and edited (pi's `FileOperations`). */
export interface FileOperations {
  read: Set<string>;
  written: Set<string>;
  edited: Set<string>;
}

export interface CollectEntriesResult {
  /** Oldest first. */
  entries: SessionEntry[];
  commonAncestorId: string | null;
}

export interface BranchPreparation {
  /** Oldest first. */
  messages: ContextMessage[];
  fileOps: FileOperations;
  totalTokens: number;
}

/** What `collectEntriesForBranchSummary` needs of a session manager. */
export interface BranchSource {
  getBranch(fromId?: string): SessionEntry[];
  getEntry(id: string): SessionEntry | undefined;
}

export const emptyFileOperations = (): FileOperations => ({ read: new Set(), written: new Set(), edited: new Set() });

const FILE_TOOLS: Record<string, keyof FileOperations> = { read: "read", write: "written", edit: "edited" };

function noteFileOperation(name: unknown, args: unknown, into: FileOperations): void {
  const path = (args as { path?: unknown } | null | undefined)?.path;
  const kind = typeof name === "string" ? FILE_TOOLS[name] : undefined;
  if (kind && typeof path === "string" && path !== "") into[kind].add(path);
}

/** The built-in file tools an assistant message calls (or a tool result's nested calls, a codemode script's). */
export function collectFileOperations(message: ContextMessage, into: FileOperations): void {
  if (message.role === "toolResult") {
    for (const call of message.nestedCalls?.calls ?? []) noteFileOperation(call?.name, call?.arguments, into);
    return;
  }
  if (message.role !== "assistant" || !Array.isArray(message.content)) return;
  for (const block of message.content) if (block?.type === "toolCall") noteFileOperation(block.name, block.arguments, into);
}

/** Files only read, and files changed (written or edited), each sorted. */
export function fileLists(ops: FileOperations): { readFiles: string[]; modifiedFiles: string[] } {
  const modified = new Set([...ops.written, ...ops.edited]);
  return { readFiles: [...ops.read].filter((path) => !modified.has(path)).sort(), modifiedFiles: [...modified].sort() };
}

/** The `<read-files>` / `<modified-files>` blocks pi appends to a summary (empty when there are none). */
export function fileListBlocks({ readFiles, modifiedFiles }: { readFiles: string[]; modifiedFiles: string[] }): string {
  const blocks: string[] = [];
  if (readFiles.length > 0) blocks.push(`<read-files>\n${readFiles.join("\n")}\n</read-files>`);
  if (modifiedFiles.length > 0) blocks.push(`<modified-files>\n${modifiedFiles.join("\n")}\n</modified-files>`);
  return blocks.length === 0 ? "" : `\n\n${blocks.join("\n\n")}`;
}

/**
 * The entries a move from `oldLeafId` to `targetId` leaves behind: from the old leaf back to (not
 * including) the deepest entry both branches share, oldest first. Compactions on the way are kept.
 */
export function collectEntriesForBranchSummary(session: BranchSource, oldLeafId: string | null, targetId: string): CollectEntriesResult {
  if (!oldLeafId) return { entries: [], commonAncestorId: null };
  const onOldBranch = new Set(session.getBranch(oldLeafId).map((entry) => entry.id));
  const commonAncestorId =
    session
      .getBranch(targetId)
      .map((entry) => entry.id)
      .findLast((id) => onOldBranch.has(id)) ?? null;
  const entries: SessionEntry[] = [];
  for (let id: string | null = oldLeafId; id && id !== commonAncestorId; ) {
    const entry = session.getEntry(id);
    if (!entry) break;
    entries.push(entry);
    id = entry.parentId;
  }
  return { entries: entries.reverse(), commonAncestorId };
}

/** The one message a branch entry adds to a summary; tool results (their call says enough) and bookkeeping entries add none. */
function summaryMessage(entry: SessionEntry, edit: SessionEntry | undefined): ContextMessage | undefined {
  if (entry.type === "message" && entry.message?.role === "toolResult") return undefined;
  // A compaction's summary, without the system message it may carry.
  if (entry.type === "compaction") return sessionEntryToContextMessages(entry).find((message) => message.role === "compactionSummary");
  if (entry.type === "message" || entry.type === "custom_message" || entry.type === "branch_summary") return edited(entry, edit)[0];
  return undefined;
}

/**
 * The entries as messages, newest first until `tokenBudget` (0: no limit) is spent (a summary
 * that does not fit still goes in while under 90% of it), then put back in order. The file
 * operations count every entry, with the lists of earlier branch summaries Atomic or pi wrote.
 */
export function prepareBranchEntries(entries: SessionEntry[], tokenBudget = 0): BranchPreparation {
  const fileOps = emptyFileOperations();
  for (const entry of entries) {
    if (entry.type !== "branch_summary" || entry.fromHook || !entry.details) continue;
    const { readFiles, modifiedFiles } = entry.details as { readFiles?: unknown; modifiedFiles?: unknown };
    if (Array.isArray(readFiles)) for (const path of readFiles) fileOps.read.add(path);
    if (Array.isArray(modifiedFiles)) for (const path of modifiedFiles) fileOps.edited.add(path);
  }
  const edits = new Map(entries.filter((entry) => entry.type === "context_edit").map((entry) => [entry.targetId as string, entry]));
  const messages: ContextMessage[] = [];
  let totalTokens = 0;
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index]!;
    const message = summaryMessage(entry, edits.get(entry.id));
    if (!message) continue;
    collectFileOperations(message, fileOps);
    const tokens = estimateTokens(message);
    if (tokenBudget > 0 && totalTokens + tokens > tokenBudget) {
      const isSummary = entry.type === "compaction" || entry.type === "branch_summary";
      if (isSummary && totalTokens < tokenBudget * 0.9) {
        messages.push(message);
        totalTokens += tokens;
      }
      break;
    }
    messages.push(message);
    totalTokens += tokens;
  }
  return { messages: messages.reverse(), fileOps, totalTokens };
}
