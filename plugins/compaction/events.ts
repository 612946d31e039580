/** The events the compaction plugin emits (docs/protocol.md: compaction_start/end, summarization_retry_*). */
import { z } from "zod";
import { CompactionResultSchema } from "./api.js";

const reason = () => z.enum(["manual", "threshold", "overflow"]).describe("Why: the `compact` command, the context passed its threshold, or the prompt overflowed the window.");
const RESULT_EXAMPLE = {
  compactedText: "[user] Fix the failing test in parser.ts\n[... 120 lines deleted ...]\n[assistant] The test passes now.",
  firstKeptEntryId: "a1b2c3d4",
  tokensBefore: 48210,
  promptVersion: 1,
  parameters: { compression_ratio: 0.5, preserve_recent: 4 },
  rung: "planned",
  stats: { linesBefore: 240, linesDeleted: 120, linesKept: 120, rangeCount: 3, tokensBefore: 40100, tokensAfter: 20300, percentReduction: 49.4 },
};

export const COMPACTION_EVENT_SCHEMAS = {
  compaction_start: () => z.object({ reason: reason() }).meta({ description: "Verbatim line compaction begins.", examples: [{ reason: "manual" }] }),
  compaction_end: () =>
    z
      .object({
        reason: reason(),
        result: CompactionResultSchema().nullable().meta({ description: "The committed boundary; null when none was written." }),
        aborted: z.boolean().describe("It was aborted (the session is unchanged)."),
        willRetry: z.boolean().meta({ description: "An overflow compaction succeeded: the prompt continues." }),
        errorMessage: z.string().optional().describe("Why it failed."),
        unresolvedOverflow: z.boolean().optional().meta({ description: "The prompt overflowed again after its one compact-and-retry." }),
      })
      .meta({
        description: "Verbatim line compaction completed, failed or was aborted.",
        examples: [{ reason: "manual", result: RESULT_EXAMPLE, aborted: false, willRetry: false }],
      }),
  summarization_retry_scheduled: () =>
    z
      .object({
        attempt: z.number().describe("The retry about to happen (1 for the first)."),
        maxAttempts: z.number().describe("How many retries there may be."),
        delayMs: z.number().describe("The wait before it."),
        errorMessage: z.string().describe("The error that is retried."),
      })
      .meta({
        description: "Compaction planning will retry after a transient provider error.",
        examples: [{ attempt: 1, maxAttempts: 3, delayMs: 2000, errorMessage: "529 Overloaded" }],
      }),
  summarization_retry_attempt_start: () =>
    z
      .object({
        source: z.enum(["compaction", "branchSummary"]).describe("What the request plans (Atomic sends compaction; pi also branch summaries)."),
        reason: reason().optional(),
      })
      .meta({ description: "A retried planning request starts.", examples: [{ source: "compaction", reason: "threshold" }] }),
  summarization_retry_finished: () => z.object({}).meta({ description: "The planning retry loop completed.", examples: [{}] }),
};

type Payload<K extends keyof typeof COMPACTION_EVENT_SCHEMAS> = z.output<ReturnType<(typeof COMPACTION_EVENT_SCHEMAS)[K]>>;

declare module "../../kernel/events.js" {
  interface EventMap {
    compaction_start: Payload<"compaction_start">;
    compaction_end: Payload<"compaction_end">;
    summarization_retry_scheduled: Payload<"summarization_retry_scheduled">;
    summarization_retry_attempt_start: Payload<"summarization_retry_attempt_start">;
    /** No payload. */
    summarization_retry_finished: {};
  }
}
