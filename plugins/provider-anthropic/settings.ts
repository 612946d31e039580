/**
 * `anthropic.cacheTtl`: the prompt-cache lifetime, "5m" (default) or "1h". Read defensively:
 * the kernel's settings schema does not declare it yet (the plugin will contribute
 * `z.object({ cacheTtl: z.enum(["5m", "1h"]).optional() })` once plugins declare settings).
 */
import type { Settings } from "../../kernel/index.js";

export function cacheTtlSetting(settings: Settings, warn: (message: string) => void): "5m" | "1h" {
  const value = (settings as { anthropic?: { cacheTtl?: unknown } }).anthropic?.cacheTtl;
  if (value === undefined || value === "5m" || value === "1h") return value ?? "5m";
  warn(`Invalid anthropic.cacheTtl: expected "5m" or "1h"; using "5m"`);
  return "5m";
}
