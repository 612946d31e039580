/**
 * Commands that read (or name) the current session: get_fork_messages, get_entries, get_tree,
 * set_session_name, get_session_stats.
 */
import { z } from "zod";
import { defineCommand, ErrorCode, NO_DATA, KernelError, type CommandDefinition } from "../../kernel/index.js";
import { StoredSessionEntrySchema, TreeNodeSchema } from "./api.js";
import type { SessionRuntime } from "./runtime.js";
import { MAX_SESSION_NAME_CHARS } from "./limits.js";
import { computeSessionTotals, estimateContextTokens } from "./stats.js";

export function queryCommands(runtime: SessionRuntime): CommandDefinition<any, any>[] {
  const tree = () => runtime.manager.current.tree;

  const getForkMessages = defineCommand({
    name: "get_fork_messages",
    description: "User messages a fork can start from: those of every branch, not only the active one (as pi).",
    input: () => z.object({}),
    output: () =>
      z.object({
        messages: z
          .array(z.object({ entryId: z.string().describe("The message's entry id (what `fork` takes)."), text: z.string().describe("Its text.") }))
          .describe("The user messages with text, of every branch, in the order they were appended."),
      }),
    run: () => ({ messages: tree().forkPoints() }),
  });

  const getEntries = defineCommand({
    name: "get_entries",
    description: "Session entries in append order (all branches), optionally strictly after `since`.",
    input: () => z.object({ since: z.string().optional().describe("Only the entries appended after this entry id.") }).meta({ examples: [{ since: "a1b2c3d4" }] }),
    output: () =>
      z.object({
        entries: z.array(StoredSessionEntrySchema()).describe("The entries, in the order they were appended (every branch)."),
        leafId: z.string().nullable().describe("The entry the conversation continues from (null: empty session)."),
      }),
    run({ since }) {
      const current = tree();
      if (since === undefined) return { entries: current.entries().slice(), leafId: current.leafId };
      const entries = current.since(since);
      if (!entries) throw new KernelError(ErrorCode.NOT_FOUND, `Entry not found: ${since}`);
      return { entries, leafId: current.leafId };
    },
  });

  const getTree = defineCommand({
    name: "get_tree",
    description: "The session as a tree of entries; orphans appear as extra roots.",
    input: () => z.object({}),
    output: () =>
      z.object({
        tree: z.array(TreeNodeSchema()).describe("The root entries, each with the entries that follow it."),
        leafId: z.string().nullable().describe("The entry the conversation continues from (null: empty session)."),
      }),
    run: () => ({ tree: tree().tree(), leafId: tree().leafId }),
  });

  const setSessionName = defineCommand({
    name: "set_session_name",
    description: `Set the session's display name (at most ${MAX_SESSION_NAME_CHARS} characters).`,
    input: () => z.object({ name: z.string().describe("The new name: one line of text (no control characters), not blank.") }).meta({ examples: [{ name: "Parser refactor" }] }),
    output: NO_DATA,
    async run({ name }) {
      await runtime.setSessionName(name);
      return undefined;
    },
  });

  const getSessionStats = defineCommand({
    name: "get_session_stats",
    description: "Message counts, token usage, cost and context-window usage.",
    input: () => z.object({}),
    output: () =>
      z.object({
        sessionFile: z.string().optional().describe("The session file; absent for an in-memory session."),
        sessionId: z.string().describe("The session's id (uuid)."),
        userMessages: z.number().describe("User messages."),
        assistantMessages: z.number().describe("Assistant messages."),
        toolCalls: z.number().describe("Tool calls the model made."),
        toolResults: z.number().describe("Tool results."),
        totalMessages: z.number().describe("All messages."),
        tokens: z
          .object({
            input: z.number().describe("Input tokens."),
            output: z.number().describe("Output tokens."),
            cacheRead: z.number().describe("Tokens read from prompt caches."),
            cacheWrite: z.number().describe("Tokens written to prompt caches."),
            total: z.number().describe("All of them."),
          })
          .describe("Tokens over every model call of the session."),
        cost: z.number().describe("What the session's model calls cost, in dollars."),
        contextUsage: z
          .object({
            tokens: z.number().nullable().describe("Tokens the next request would send."),
            contextWindow: z.number().describe("The model's context window."),
            percent: z.number().nullable().describe("tokens as a percentage of contextWindow."),
          })
          .optional()
          .meta({ description: "Absent without a model; tokens and percent are null after a compaction until a fresh answer reports usage." }),
      }),
    run() {
      const { header, storage } = runtime.manager.current;
      const totals = computeSessionTotals(tree().entries());
      const stats: Record<string, unknown> = {};
      if (storage.file !== undefined) stats.sessionFile = storage.file;
      Object.assign(stats, { sessionId: header.id, ...totals });
      const model = runtime.agent.getModel();
      if (model && model.contextWindow > 0) {
        const tokens = estimateContextTokens(runtime.agent.getMessages());
        const percent = tokens === null ? null : round2((tokens / model.contextWindow) * 100);
        stats.contextUsage = { tokens, contextWindow: model.contextWindow, percent };
      }
      return stats;
    },
  });

  return [getForkMessages, getEntries, getTree, setSessionName, getSessionStats];
}

/** Two decimals: enough for a gauge, without float noise like 2.8000000000000003. */
function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
