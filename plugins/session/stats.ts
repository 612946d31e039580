/**
 * Session statistics (pure): message counts and usage totals over every message entry of the
 * session (all branches), and the context-window estimate over the live context.
 */
import type { AgentMessage, AssistantMessage, Usage } from "../../lib/llm/index.js";
import type { SessionEntry } from "./api.js";

export interface SessionTotals {
  userMessages: number;
  assistantMessages: number;
  toolCalls: number;
  toolResults: number;
  totalMessages: number;
  tokens: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
  cost: number;
}

function addUsage(totals: SessionTotals, usage: Usage | undefined): void {
  if (!usage) return;
  totals.tokens.input += num(usage.input);
  totals.tokens.output += num(usage.output);
  totals.tokens.cacheRead += num(usage.cacheRead);
  totals.tokens.cacheWrite += num(usage.cacheWrite);
  totals.cost += num(usage.cost?.total);
}

export function computeSessionTotals(entries: readonly SessionEntry[]): SessionTotals {
  const totals: SessionTotals = {
    userMessages: 0,
    assistantMessages: 0,
    toolCalls: 0,
    toolResults: 0,
    totalMessages: 0,
    tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    cost: 0,
  };
  for (const entry of entries) {
    if (entry.type !== "message") continue;
    const message = entry.message;
    totals.totalMessages++;
    if (message.role === "user") totals.userMessages++;
    else if (message.role === "toolResult") {
      totals.toolResults++;
      // A tool's own model calls (codemode's classifiers) are money spent, so they count in
      // `cost`; the spec defines `tokens` as assistant usage only (pi adds both).
      totals.cost += num(message.usage?.cost?.total);
    } else if (message.role === "assistant") {
      totals.assistantMessages++;
      for (const block of message.content ?? []) if (block.type === "toolCall") totals.toolCalls++;
      addUsage(totals, message.usage);
    }
  }
  const t = totals.tokens;
  t.total = t.input + t.output + t.cacheRead + t.cacheWrite;
  return totals;
}

/**
 * Tokens the context occupies: the usage of the last good assistant answer plus chars/4 of the
 * messages after it. An answer only counts if no earlier message is newer than it: messages kept
 * verbatim after a compaction boundary are older than the boundary, so their usage (which
 * measured the pre-compaction context) is never taken. Null right after a compaction, until a
 * fresh answer reports usage.
 */
export function estimateContextTokens(messages: readonly AgentMessage[]): number | null {
  let anchor = -1;
  let boundary = -1;
  let newest = -Infinity;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role === "assistant" && isUsableUsage(message) && timestampOf(message) >= newest) anchor = i;
    if (message.role === "custom" && message.customType === "compaction") boundary = i;
    newest = Math.max(newest, timestampOf(message));
  }
  if (boundary > anchor) return null;
  let tokens = anchor >= 0 ? usageTokens(messages[anchor] as AssistantMessage) : 0;
  for (let i = anchor + 1; i < messages.length; i++) tokens += estimateMessageTokens(messages[i]!);
  return tokens;
}

function timestampOf(message: AgentMessage): number {
  const { timestamp } = message as { timestamp?: unknown };
  return typeof timestamp === "number" && Number.isFinite(timestamp) ? timestamp : -Infinity;
}

function isUsableUsage(message: AssistantMessage): boolean {
  return message.stopReason !== "error" && message.stopReason !== "aborted" && usageTokens(message) > 0;
}

function usageTokens(message: AssistantMessage): number {
  const u = message.usage;
  if (!u) return 0;
  return num(u.input) + num(u.output) + num(u.cacheRead) + num(u.cacheWrite);
}

/** An image counts as 4800 chars (~1200 tokens), a common rough budget. */
const IMAGE_CHARS = 4800;

export function estimateMessageTokens(message: AgentMessage): number {
  let chars = 0;
  switch (message.role) {
    case "user":
    case "custom":
    case "toolResult": {
      const content = message.content;
      if (typeof content === "string") chars = content.length;
      else for (const block of content) chars += block.type === "text" ? block.text.length : IMAGE_CHARS;
      break;
    }
    case "assistant":
      for (const block of message.content ?? []) {
        if (block.type === "text") chars += block.text.length;
        else if (block.type === "thinking") chars += block.thinking.length;
        else if (block.type === "toolCall") chars += block.name.length + JSON.stringify(block.arguments ?? {}).length;
      }
      break;
    case "bashExecution":
      chars = message.command.length + message.output.length;
      break;
  }
  return Math.ceil(chars / 4);
}

function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}
