/**
 * Automatic compaction at the run edges the agent offers: before a prompt's first LLM call and
 * after a run, when the context estimate exceeds the window minus `reserveTokens` (reason
 * "threshold"); and after a run that failed because the context overflowed (reason "overflow"):
 * compact, then continue the prompt once. A second overflow in the same prompt is reported as
 * unresolved.
 */
import type { AgentMessage } from "../../lib/llm/index.js";
import type { PluginContext } from "../../kernel/index.js";
import { contextTokens } from "./outcome.js";
import { isContextOverflow } from "./provider-errors.js";
import type { CompactionRunner } from "./runner.js";

export interface AutoSwitch {
  enabled(): boolean;
}

export function tapAutomaticCompaction(k: PluginContext, runner: CompactionRunner, auto: AutoSwitch): void {
  /** One compact-and-retry per prompt. */
  let retriedOverflow = false;

  const aboveThreshold = (messages: readonly AgentMessage[]): boolean => {
    const model = k.service("agent").getModel();
    if (!model || model.contextWindow <= 0) return false;
    return contextTokens(messages) > model.contextWindow - runner.settings.reserveTokens;
  };

  // Once per prompt, before agent_start.
  k.hooks.run_start.tapPromise(k.name, async ({ messages, signal, setContext }) => {
    retriedOverflow = false;
    if (auto.enabled() && aboveThreshold(messages)) await runner.automatic("threshold", signal, setContext);
  });

  k.hooks.run_end.tapPromise(k.name, async ({ lastAssistant, messages, signal, setContext }) => {
    if (!lastAssistant || !auto.enabled()) return undefined;
    // The model's base URL decides the wordings only some servers use (an empty 400).
    if (lastAssistant.stopReason === "error" && isContextOverflow(lastAssistant.errorMessage, k.service("agent").getModel() ?? undefined)) {
      if (retriedOverflow) {
        runner.reportUnresolved(lastAssistant.errorMessage ?? "context overflow");
        return undefined;
      }
      retriedOverflow = true;
      // The failed turn is before the boundary: the rebuilt context leaves it out.
      const result = await runner.automatic("overflow", signal, setContext);
      return result ? { continue: true, retrying: lastAssistant } : undefined;
    }
    if (lastAssistant.stopReason === "error" || lastAssistant.stopReason === "aborted") return undefined;
    if (aboveThreshold(messages)) await runner.automatic("threshold", signal, setContext);
    return undefined;
  });
}
