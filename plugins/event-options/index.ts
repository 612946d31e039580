/**
 * Plugin `event-options`: the opt-in shapes of the outward stream. `set_event_options` chooses
 * `message_update` deltas (linear output on long answers) and the `agent_settled` event (the
 * "really done" signal: emitted when the agent's `agent_settled` hook fires, i.e. after the
 * last `agent_end` of a prompt with no retry, compaction or continuation pending). Nothing
 * changes until a client asks.
 */
import { z } from "zod";
import { defineCommand, definePlugin } from "../../kernel/index.js";
import { AgentSettledSchema, DEFAULT_EVENT_OPTIONS, EventOptionsSchema, MessageUpdatesSchema, type EventOptions } from "./api.js";

export { deltaUpdate, DEFAULT_EVENT_OPTIONS, type EventOptions, type EventOptionsApi } from "./api.js";

export default definePlugin({
  name: "event-options",
  description: "Opt-in event options: message_update deltas and agent_settled.",
  provides: ["eventOptions"],
  apply(k) {
    let options: EventOptions = { ...DEFAULT_EVENT_OPTIONS };
    k.provide("eventOptions", {
      current: () => ({ ...options }),
      get deltaUpdates() {
        return options.messageUpdates === "delta";
      },
    });
    k.registerEvent("agent_settled", AgentSettledSchema);
    // Last, so every other settled tap (deferred writes, extensions) has run before clients hear it.
    k.hooks.agent_settled.tap({ name: k.name, order: "post" }, () => {
      if (options.agentSettled) k.events.emit("agent_settled", {});
    });
    k.registerCommand(
      defineCommand({
        name: "set_event_options",
        description: "Choose opt-in event shapes; each field optional; the response holds every option in force.",
        // Immediate: a client may switch while a run streams; records after the response follow it.
        lane: "immediate",
        input: () =>
          z
            .object({
              messageUpdates: MessageUpdatesSchema().optional(),
              agentSettled: z.boolean().optional().meta({ description: "true: one `agent_settled` event once each prompt is fully done." }),
            })
            .meta({ examples: [{ messageUpdates: "delta", agentSettled: true }] }),
        output: EventOptionsSchema,
        run(input) {
          options = {
            messageUpdates: input.messageUpdates ?? options.messageUpdates,
            agentSettled: input.agentSettled ?? options.agentSettled,
          };
          return { ...options };
        },
      }),
    );
  },
});
