/** The compaction results `compact` answers and `compaction_end` carries, as zod schemas (their types: types.ts). */
import { z } from "zod";
import { once } from "../../lib/llm/index.js";

export const CompactionParametersSchema = once(() =>
  z.object({ compression_ratio: z.number(), preserve_recent: z.number(), query: z.string().optional() }).meta({ description: "Per-call knobs of the verbatim-line compactor." }),
);

export const CompactionStatsSchema = once(() =>
  z.object({
    linesBefore: z.number(),
    linesDeleted: z.number(),
    linesKept: z.number(),
    rangeCount: z.number(),
    tokensBefore: z.number(),
    tokensAfter: z.number(),
    percentReduction: z.number(),
  }),
);

export const CompactionResultSchema = once(() =>
  z.object({
    compactedText: z.string(),
    firstKeptEntryId: z.string().nullable(),
    tokensBefore: z.number(),
    promptVersion: z.number(),
    parameters: CompactionParametersSchema(),
    rung: z.string().meta({ description: '"planned" (the model\'s plan), "extension" (a hook), "fresh" (overflow fallback).' }),
    stats: CompactionStatsSchema(),
    backupPath: z.string().optional(),
  }),
);
