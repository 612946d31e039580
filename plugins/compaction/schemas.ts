/** The compaction results `compact` answers and `compaction_end` carries, as zod schemas (their types: types.ts). */
import { z } from "zod";
import { once } from "../../lib/llm/index.js";

export const CompactionParametersSchema = once(() =>
  z
    .object({
      compression_ratio: z.number().describe("The share of the compactable lines to delete (0-1)."),
      preserve_recent: z.number().describe("Messages at the end kept as they are."),
      query: z.string().optional().describe("What the kept lines should serve (the `compact` command's `query`)."),
    })
    .meta({ description: "Per-call knobs of the verbatim-line compactor." }),
);

export const CompactionStatsSchema = once(() =>
  z
    .object({
      linesBefore: z.number().describe("Transcript lines of the compacted region."),
      linesDeleted: z.number().describe("Lines deleted."),
      linesKept: z.number().describe("Lines kept verbatim."),
      rangeCount: z.number().describe("Deleted ranges (each replaced by a marker)."),
      tokensBefore: z.number().describe("Estimated tokens of the region before."),
      tokensAfter: z.number().describe("Estimated tokens after."),
      percentReduction: z.number().describe("How much smaller, in percent."),
    })
    .describe("What a compaction removed."),
);

export const CompactionResultSchema = once(() =>
  z
    .object({
      compactedText: z.string().describe("The text that now stands for the compacted messages."),
      firstKeptEntryId: z.string().nullable().describe("The first session entry kept as it was (null: none)."),
      tokensBefore: z.number().describe("Context tokens before compaction."),
      promptVersion: z.number().describe("Version of the planning prompt used."),
      parameters: CompactionParametersSchema().describe("The knobs this compaction ran with."),
      rung: z.string().meta({ description: '"planned" (the model\'s plan), "extension" (a hook), "fresh" (overflow fallback).' }),
      stats: CompactionStatsSchema().describe("What it removed."),
      backupPath: z.string().optional().describe("A copy of the session file as it was before, when one was written."),
    })
    .describe("The outcome of a compaction (the `compact` response, `compaction_end`)."),
);
