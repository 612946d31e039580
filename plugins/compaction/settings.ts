/** The `compaction` settings key (owned here) and the effective values, defaults filled in. */
import { z } from "zod";
import { defineSetting, type Settings } from "../../kernel/index.js";
import type { CompactionSettings } from "./api.js";

export const COMPACTION_DEFAULTS: CompactionSettings = Object.freeze({ enabled: true, reserveTokens: 16_384, preserveRecent: 2, compressionRatio: 0.5 });

/** The automatic-retry settings the planner's own retries follow (key `retry`, owned by plugin retry). */
export interface PlannerRetrySettings {
  enabled: boolean;
  maxRetries: number;
  baseDelayMs: number;
}

const PLANNER_RETRY_DEFAULTS: PlannerRetrySettings = { enabled: true, maxRetries: 3, baseDelayMs: 2000 };

/** A number in (0, 1): the fraction of region lines the planner should keep. */
export const ratioSchema = () => z.number().refine((value) => value > 0 && value < 1, { message: "a number between 0 and 1 (exclusive)" });

export const compactionSetting = defineSetting(
  () =>
    z.object({
      enabled: z.boolean().optional(),
      reserveTokens: z.number().int().min(0).optional(),
      preserveRecent: z.number().int().min(0).optional(),
      compressionRatio: ratioSchema().optional(),
      keepRecentTokens: z.number().int().min(0).optional(),
    }),
  {
    description:
      "Verbatim compaction: enabled (true: automatic on threshold and overflow), reserveTokens (16384), preserveRecent (2), compressionRatio (0.5, the fraction of lines kept), keepRecentTokens (pi's: unset; when set, a branch whose context beyond its oldest message stays under it has nothing to compact).",
  },
);

declare module "../../kernel/config.js" {
  interface Settings {
    compaction?: z.output<ReturnType<(typeof compactionSetting)["schema"]>>;
  }
}

export function effectiveCompactionSettings(settings: Settings): CompactionSettings {
  const configured = settings.compaction ?? {};
  return {
    enabled: configured.enabled ?? COMPACTION_DEFAULTS.enabled,
    reserveTokens: configured.reserveTokens ?? COMPACTION_DEFAULTS.reserveTokens,
    preserveRecent: configured.preserveRecent ?? COMPACTION_DEFAULTS.preserveRecent,
    compressionRatio: configured.compressionRatio ?? COMPACTION_DEFAULTS.compressionRatio,
    ...(configured.keepRecentTokens !== undefined ? { keepRecentTokens: configured.keepRecentTokens } : {}),
  };
}

/** Read from the startup snapshot of `retry` (docs/protocol.md: the same retry settings as assistant turns). */
export function plannerRetrySettings(settings: Settings): PlannerRetrySettings {
  const retry = (settings as { retry?: Partial<PlannerRetrySettings> }).retry ?? {};
  return {
    enabled: retry.enabled ?? PLANNER_RETRY_DEFAULTS.enabled,
    maxRetries: retry.maxRetries ?? PLANNER_RETRY_DEFAULTS.maxRetries,
    baseDelayMs: retry.baseDelayMs ?? PLANNER_RETRY_DEFAULTS.baseDelayMs,
  };
}
