/** The events the retry plugin declares (docs/protocol.md: auto_retry_start / auto_retry_end). */
import { z } from "zod";

export const AutoRetryStartSchema = () =>
  z
    .object({ attempt: z.number(), maxAttempts: z.number(), delayMs: z.number(), errorMessage: z.string() })
    .meta({ description: "An automatic retry is scheduled after a transient provider error." });

export const AutoRetryEndSchema = () =>
  z
    .object({ success: z.boolean(), attempt: z.number(), finalError: z.string().optional() })
    .meta({ description: "Automatic retry finished: the retried turn succeeded, or retries gave up (`finalError`)." });

declare module "../../kernel/events.js" {
  interface EventMap {
    auto_retry_start: z.output<ReturnType<typeof AutoRetryStartSchema>>;
    auto_retry_end: z.output<ReturnType<typeof AutoRetryEndSchema>>;
  }
}
