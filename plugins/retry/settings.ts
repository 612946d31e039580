/**
 * `retry.provider.maxRetryDelayMs`, read defensively: the kernel's settings schema does not
 * declare it yet (the plugin will contribute `z.number().int().min(0)` once plugins declare
 * their own settings), so a bad value is reported and the default used.
 */
import type { Settings } from "../../kernel/index.js";
import { RETRY_DEFAULTS } from "./retry-chain.js";

export function maxRetryDelaySetting(settings: Settings, warn: (message: string) => void): number {
  const retry = (settings as { retry?: { provider?: { maxRetryDelayMs?: unknown } } }).retry;
  const value = retry?.provider?.maxRetryDelayMs;
  if (value === undefined) return RETRY_DEFAULTS.maxRetryDelayMs;
  if (typeof value === "number" && Number.isInteger(value) && value >= 0) return value;
  warn(`Invalid retry.provider.maxRetryDelayMs: expected a non-negative integer (milliseconds); using ${RETRY_DEFAULTS.maxRetryDelayMs}`);
  return RETRY_DEFAULTS.maxRetryDelayMs;
}
