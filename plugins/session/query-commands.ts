/**
 * Commands that read (or name) the current session: get_fork_messages, get_entries, get_tree,
 * set_session_name, get_session_stats.
 */
import { z } from "zod";
import { defineCommand, ErrorCode, NO_DATA, KernelError, type CommandDefinition, } from "../../kernel/index.js";
import { StoredSessionEntrySchema, TreeNodeSchema } from "./api.js";
import type { SessionRuntime } from "./runtime.js";
import { MAX_SESSION_NAME_CHARS } from "./limits.js";
import { computeSessionTotals, estimateContextTokens } from "./stats.js";

export function queryCommands(runtime: SessionRuntime): CommandDefinition<any, any>[] {
  const tree = () => runtime.manager.current.tree;

  const getForkMessages = defineCommand({
    name: "get_fork_messages",
    description: "User messages a fork can start from.",
    input: () => z.object({}),
    output: () => z.object({ messages: z.array(z.object({ entryId: z.string(), text: z.string() })) }),
    run: () => ({ messages: tree().forkPoints() }),
  });

  const getEntries = defineCommand({
    name: "get_entries",
    description: "Session entries in append order (all branches), optionally strictly after `since`.",
    input: () => z.object({ since: z.string().optional() }),
    output: () => z.object({ entries: z.array(StoredSessionEntrySchema()), leafId: z.string().nullable() }),
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
    output: () => z.object({ tree: z.array(TreeNodeSchema()), leafId: z.string().nullable() }),
    run: () => ({ tree: tree().tree(), leafId: tree().leafId }),
  });

  const setSessionName = defineCommand({
    name: "set_session_name",
    description: `Set the session's display name (at most ${MAX_SESSION_NAME_CHARS} characters).`,
    input: () => z.object({ name: z.string() }),
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
        sessionFile: z.string().optional(),
        sessionId: z.string(),
        userMessages: z.number(),
        assistantMessages: z.number(),
        toolCalls: z.number(),
        toolResults: z.number(),
        totalMessages: z.number(),
        tokens: z.object({ input: z.number(), output: z.number(), cacheRead: z.number(), cacheWrite: z.number(), total: z.number() }),
        cost: z.number(),
        contextUsage: z
          .object({ tokens: z.number().nullable(), contextWindow: z.number(), percent: z.number().nullable() })
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
