/** The events the retry plugin declares (docs/protocol.md: auto_retry_start / auto_retry_end). */
import { z } from "zod";

export const AutoRetryStartSchema = () =>
  z
    .object({
      attempt: z.number().describe("The retry about to happen (1 for the first)."),
      maxAttempts: z.number().describe("How many retries there may be."),
      delayMs: z.number().describe("The wait before it."),
      errorMessage: z.string().describe("The error that is retried."),
    })
    .meta({
      description: "An automatic retry is scheduled after a transient provider error.",
      examples: [{ attempt: 1, maxAttempts: 3, delayMs: 2000, errorMessage: "529 Overloaded" }],
    });

export const AutoRetryEndSchema = () =>
  z
    .object({
      success: z.boolean().describe("The retried turn succeeded."),
      attempt: z.number().describe("The last attempt made."),
      finalError: z.string().optional().describe("The error retries gave up on."),
    })
    .meta({ description: "Automatic retry finished: the retried turn succeeded, or retries gave up (`finalError`).", examples: [{ success: true, attempt: 1 }] });

declare module "../../kernel/events.js" {
  interface EventMap {
    auto_retry_start: z.output<ReturnType<typeof AutoRetryStartSchema>>;
    auto_retry_end: z.output<ReturnType<typeof AutoRetryEndSchema>>;
  }
}
