/**
 * Plugin `retry`: automatic retry of transient provider errors (rate limits, overload, 5xx,
 * network) with exponential backoff. After a run whose last assistant turn failed, it drops
 * that turn from the live context, waits, and asks the agent for a continuation run.
 * A delay the server asks for (retry-after, Gemini RetryInfo) is honoured as a minimum; one
 * above `retry.provider.maxRetryDelayMs` fails at once. Settings `retry: {enabled, maxRetries,
 * baseDelayMs, provider: {maxRetryDelayMs}}`; commands `set_auto_retry`, `abort_retry`.
 */
import { z } from "zod";
import { defineCommand, definePlugin, NO_DATA } from "../../kernel/index.js";
import type {} from "../settings/api.js";
import { RETRY_DEFAULTS, RetryChain } from "./retry-chain.js";
import { retrySetting } from "./settings.js";
import { AutoRetryEndSchema, AutoRetryStartSchema } from "./events.js";

export { RetryChain, retryDelayMs, RETRY_CANCELLED, RETRY_DEFAULTS, type RetrySettings } from "./retry-chain.js";

export default definePlugin({
  name: "retry",
  description: "Automatic retry of transient provider errors with exponential backoff.",
  requires: ["agent", "settings"],
  settings: { retry: retrySetting },
  apply(k) {
    const agent = k.service("agent");
    const settings = k.service("settings");
    k.registerEvent("auto_retry_start", AutoRetryStartSchema);
    k.registerEvent("auto_retry_end", AutoRetryEndSchema);
    const configured = k.config.settings.retry ?? {};
    const chain = new RetryChain(
      {
        enabled: configured.enabled ?? RETRY_DEFAULTS.enabled,
        maxRetries: configured.maxRetries ?? RETRY_DEFAULTS.maxRetries,
        baseDelayMs: configured.baseDelayMs ?? RETRY_DEFAULTS.baseDelayMs,
        maxRetryDelayMs: configured.provider?.maxRetryDelayMs ?? RETRY_DEFAULTS.maxRetryDelayMs,
      },
      {
        emit: (type, payload) => k.events.emit(type, payload),
        removeMessage: (message) => void agent.removeMessage(message),
      },
    );

    // before_agent_start fires once per prompt (not per continuation): the chain starts fresh.
    k.hooks.before_agent_start.tap({ name: k.name, order: "pre" }, (event) => {
      chain.reset();
      return event;
    });
    // Observed on the outward stream, so auto_retry_end follows the good answer's message_end.
    k.events.subscribe((event) => {
      if (event.type === "message_end" && event.message.role === "assistant") chain.onAssistantEnd(event.message);
    });
    // The continuation's first call names the failed turn (a virtual model's `retry` route).
    k.hooks.run_end.tapPromise(k.name, async ({ lastAssistant, signal }) =>
      (await chain.onRunEnd(lastAssistant, signal, agent.getModel() ?? undefined)) ? { continue: true, ...(lastAssistant ? { retrying: lastAssistant } : {}) } : undefined,
    );

    k.registerCommand(
      defineCommand({
        name: "set_auto_retry",
        description: "Enable or disable automatic retry of transient provider errors.",
        input: () => z.object({ enabled: z.boolean().describe("On or off.") }).meta({ examples: [{ enabled: false }] }),
        output: NO_DATA,
        run: async ({ enabled }) => {
          // Like the other preferences, it survives a restart; one that cannot be saved changes nothing.
          await settings.update({ retry: { enabled } });
          chain.settings.enabled = enabled;
        },
      }),
    );
    k.registerCommand(
      defineCommand({
        name: "abort_retry",
        description: "Cancel a pending retry delay and stop retrying (succeeds when nothing is retrying).",
        lane: "immediate",
        input: () => z.object({}),
        output: NO_DATA,
        run: () => chain.cancel(),
      }),
    );
  },
});
