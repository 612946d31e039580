/**
 * Plugin `retry`: automatic retry of transient provider errors (rate limits, overload, 5xx,
 * network) with exponential backoff. After a run whose last assistant turn failed, it drops
 * that turn from the live context, waits, and asks the agent for a continuation run.
 * A delay the server asks for (retry-after, Gemini RetryInfo) is honoured as a minimum; one
 * above `retry.provider.maxRetryDelayMs` fails at once. Settings `retry: {enabled, maxRetries,
 * baseDelayMs, provider: {maxRetryDelayMs}}`; commands `set_auto_retry`, `abort_retry`.
 */
import { z } from "zod";
import { defineCommand, definePlugin, saveUserSettings, STAGE } from "../../kernel/index.js";
import { RETRY_DEFAULTS, RetryChain } from "./retry-chain.js";
import { maxRetryDelaySetting } from "./settings.js";

export { RetryChain, retryDelayMs, RETRY_CANCELLED, RETRY_DEFAULTS, type RetrySettings } from "./retry-chain.js";

export default definePlugin({
  name: "retry",
  dependsOn: ["agent"],
  description: "Automatic retry of transient provider errors with exponential backoff.",
  apply(k) {
    const agent = k.service("agent");
    const configured = k.config.settings.retry ?? {};
    const chain = new RetryChain(
      {
        enabled: configured.enabled ?? RETRY_DEFAULTS.enabled,
        maxRetries: configured.maxRetries ?? RETRY_DEFAULTS.maxRetries,
        baseDelayMs: configured.baseDelayMs ?? RETRY_DEFAULTS.baseDelayMs,
        maxRetryDelayMs: maxRetryDelaySetting(k.config.settings, (message) => k.log.warn(message)),
      },
      {
        emit: (type, payload) => k.events.emit(type, payload),
        removeMessage: (message) => void agent.removeMessage(message),
      },
    );

    // before_agent_start fires once per prompt (not per continuation): the chain starts fresh.
    k.hooks.before_agent_start.tap({ name: k.name, stage: STAGE.FIRST }, (event) => {
      chain.reset();
      return event;
    });
    // Observed after the outward message_end, so auto_retry_end follows the good answer.
    k.hooks.message_end.tap(k.name, ({ message }) => {
      if (message.role === "assistant") chain.onAssistantEnd(message);
    });
    k.hooks.run_end.tapPromise(k.name, async ({ lastAssistant, signal }) =>
      (await chain.onRunEnd(lastAssistant, signal)) ? { continue: true } : undefined,
    );

    k.registerCommand(
      defineCommand({
        name: "set_auto_retry",
        description: "Enable or disable automatic retry of transient provider errors.",
        input: () => z.object({ enabled: z.boolean() }),
        run: async ({ enabled }) => {
          chain.settings.enabled = enabled;
          // Like the other preferences, it survives a restart; a failed save only logs.
          await saveUserSettings(k.config.agentDir, { retry: { enabled } }).catch((error: unknown) =>
            k.log.warn(`could not save settings: ${error instanceof Error ? error.message : String(error)}`),
          );
        },
      }),
    );
    k.registerCommand(
      defineCommand({
        name: "abort_retry",
        description: "Cancel a pending retry delay and stop retrying (succeeds when nothing is retrying).",
        lane: "immediate",
        input: () => z.object({}),
        run: () => chain.cancel(),
      }),
    );
  },
});
