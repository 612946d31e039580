/** The `retry` settings key the retry plugin owns: its schema, type and defaults. */
import { z } from "zod";
import { defineSetting } from "../../kernel/index.js";

export const retrySetting = defineSetting(
  () =>
    z.object({
      enabled: z.boolean().optional(),
      maxRetries: z.number().int().min(0).optional(),
      baseDelayMs: z.number().int().min(0).optional(),
      provider: z.object({ maxRetryDelayMs: z.number().int().min(0).optional() }).optional(),
    }),
  {
    description:
      "Automatic retry of transient provider errors: enabled (true), maxRetries (3), baseDelayMs (2000, doubling), provider.maxRetryDelayMs (60000: a longer server-requested delay fails at once).",
  },
);

declare module "../../kernel/config.js" {
  interface Settings {
    retry?: z.output<ReturnType<(typeof retrySetting)["schema"]>>;
  }
}
