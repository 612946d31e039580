/**
 * Plugin `compaction`: verbatim line compaction. The session model picks transcript lines to
 * delete, the survivors are kept byte for byte with `(filtered N lines)` markers, and the result
 * becomes a compaction entry the model sees instead of the older history. Commands `compact` and
 * `set_auto_compaction`, automatic compaction on threshold and overflow, the events
 * compaction_* / summarization_retry_*, the hooks session_before_compact / session_compact.
 */
import { COMPACTION_EVENT_SCHEMAS } from "./events.js";
import { z } from "zod";
import { CompactionResultSchema } from "./api.js";
import { defineCommand, definePlugin, NO_DATA } from "../../kernel/index.js";
import type {} from "../session/api.js";
import type {} from "../settings/api.js";
import type { CompactionApi } from "./api.js";
import { tapAutomaticCompaction } from "./auto.js";
import { compactionHookDeclarations } from "./hooks.js";
import { CompactionRunner } from "./runner.js";
import { compactionSetting, effectiveCompactionSettings, plannerRetrySettings, ratioSchema } from "./settings.js";

export type { CompactionApi, CompactOptions } from "./api.js";

export default definePlugin({
  name: "compaction",
  description: "Verbatim line compaction: the compact command, automatic compaction on threshold and overflow.",
  provides: ["compaction"],
  requires: ["agent", "session", "settings"],
  settings: { compaction: compactionSetting },
  hooks: compactionHookDeclarations,
  apply(k) {
    const settings = effectiveCompactionSettings(k.config.settings);
    k.registerVocabulary({ CompactionResult: CompactionResultSchema });
    const runner = new CompactionRunner(k, k.ownHooks(compactionHookDeclarations), settings, plannerRetrySettings(k.config.settings));
    let autoEnabled = settings.enabled;

    const api: CompactionApi = {
      compact: (options = {}) => runner.manual(options),
      isCompacting: () => runner.isCompacting(),
      isAutoCompactionEnabled: () => autoEnabled,
      async setAutoCompactionEnabled(enabled) {
        // Like every preference, saved first: one that cannot be saved changes nothing.
        await k.service("settings").update({ compaction: { enabled } });
        autoEnabled = enabled;
      },
    };
    k.provide("compaction", api);
    for (const [name, schema] of Object.entries(COMPACTION_EVENT_SCHEMAS)) k.registerEvent(name as keyof typeof COMPACTION_EVENT_SCHEMAS, schema);
    k.service("agent").addStateContributor(
      () => ({ isCompacting: runner.isCompacting(), autoCompactionEnabled: autoEnabled }),
      () => ({ isCompacting: z.boolean().describe("A compaction is running."), autoCompactionEnabled: z.boolean().describe("Automatic compaction is on.") }),
    );
    tapAutomaticCompaction(k, runner, { enabled: () => autoEnabled });
    // The client's abort (and teardown's) also stops a running compaction.
    k.hooks.abort.tapPromise(k.name, ({ seq }) => runner.abort(seq));

    k.registerCommand(
      defineCommand({
        name: "compact",
        description: "Compact the conversation now (verbatim line compaction); aborts a streaming run first.",
        input: () =>
          z
            .object({
              preserve_recent: z.number().int().min(0).optional().describe("Messages at the end to keep as they are (default: the settings' value)."),
              compression_ratio: ratioSchema().optional().describe("The share of compactable lines to delete, 0-1 (default: the settings' value)."),
              query: z.string().optional().describe("What the kept lines should serve (the work that continues)."),
              customInstructions: z.string().optional().describe("Extra instructions for the planning model (pi's field)."),
            })
            .meta({ examples: [{ preserve_recent: 4, query: "finish the parser refactor" }] }),
        output: CompactionResultSchema,
        run: (input, ctx) =>
          runner.manual(
            {
              ...(input.preserve_recent !== undefined ? { preserveRecent: input.preserve_recent } : {}),
              ...(input.compression_ratio !== undefined ? { compressionRatio: input.compression_ratio } : {}),
              ...(input.query !== undefined ? { query: input.query } : {}),
              ...(input.customInstructions !== undefined ? { customInstructions: input.customInstructions } : {}),
            },
            ctx.seq,
          ),
      }),
    );
    k.registerCommand(
      defineCommand({
        name: "set_auto_compaction",
        description: "Enable or disable automatic compaction (persisted in the user's settings).",
        input: () => z.object({ enabled: z.boolean().describe("On or off.") }).meta({ examples: [{ enabled: false }] }),
        output: NO_DATA,
        run: ({ enabled }) => api.setAutoCompactionEnabled(enabled),
      }),
    );
  },
});
