/** The events the compaction plugin emits (docs/protocol.md: compaction_start/end, summarization_retry_*). */
import { z } from "zod";
import { CompactionResultSchema } from "./api.js";

const reason = () => z.enum(["manual", "threshold", "overflow"]);

export const COMPACTION_EVENT_SCHEMAS = {
  compaction_start: () => z.object({ reason: reason() }).meta({ description: "Verbatim line compaction begins." }),
  compaction_end: () =>
    z
      .object({
        reason: reason(),
        result: CompactionResultSchema().nullable().meta({ description: "The committed boundary; null when none was written." }),
        aborted: z.boolean(),
        willRetry: z.boolean().meta({ description: "An overflow compaction succeeded: the prompt continues." }),
        errorMessage: z.string().optional(),
        unresolvedOverflow: z.boolean().optional().meta({ description: "The prompt overflowed again after its one compact-and-retry." }),
      })
      .meta({ description: "Verbatim line compaction completed, failed or was aborted." }),
  summarization_retry_scheduled: () =>
    z
      .object({ attempt: z.number(), maxAttempts: z.number(), delayMs: z.number(), errorMessage: z.string() })
      .meta({ description: "Compaction planning will retry after a transient provider error." }),
  summarization_retry_attempt_start: () =>
    z.object({ source: z.enum(["compaction", "branchSummary"]), reason: reason().optional() }).meta({ description: "A retried planning request starts." }),
  summarization_retry_finished: () => z.object({}).meta({ description: "The planning retry loop completed." }),
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
