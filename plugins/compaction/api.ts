/**
 * The compaction plugin's public surface: the `compaction` service (manual compaction for the
 * SDK and extensions, the automatic switch) and the events it emits.
 */
import type { CompactionHooks } from "./hooks.js";
import type { CompactionResult } from "./types.js";

export type * from "./types.js";
export type { BeforeCompactEvent, CompactionHooks, CompactVerdict } from "./hooks.js";
export { CompactionResultSchema, CompactionParametersSchema, CompactionStatsSchema } from "./schemas.js";

export interface CompactOptions {
  preserveRecent?: number;
  compressionRatio?: number;
  query?: string;
  /** Accepted for pi compatibility; verbatim compaction writes no summary, so it only reaches the hook. */
  customInstructions?: string;
}

export interface CompactionApi {
  /**
   * Compacts now (reason "manual"); aborts a streaming run first. Rejects with `Compaction
   * cancelled`, `Nothing to compact (session too small)` or `Compaction failed: <message>`.
   */
  compact(options?: CompactOptions): Promise<CompactionResult>;
  isCompacting(): boolean;
  isAutoCompactionEnabled(): boolean;
  /** Persists to the user's settings first; a failed write changes nothing. */
  setAutoCompactionEnabled(enabled: boolean): Promise<void>;
}

declare module "../../kernel/services.js" {
  interface Services {
    compaction: CompactionApi;
  }
}

declare module "../../kernel/hooks.js" {
  interface HookCatalog extends CompactionHooks {}
}

export type {} from "./events.js";

/** The hooks this plugin declares (for a stand-in plugin in tests, which must declare them too). */
export { compactionHookDeclarations } from "./hooks.js";
