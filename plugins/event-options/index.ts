/**
 * Plugin `event-options`: the shapes of the outward stream a client may choose. `set_event_options`
 * chooses `message_update` deltas (linear output on long answers; the default keeps the protocol's
 * snapshots) and whether the `agent_settled` event is written (the "really done" signal, on by
 * default as in pi 1.x: emitted when the agent's `agent_settled` hook fires, i.e. after the last
 * `agent_end` of a prompt with no retry, compaction or continuation pending). The `eventOptions`
 * setting chooses what a client starts with (for a client that cannot send the command: pi-acp).
 */
import { z } from "zod";
import { defineCommand, definePlugin } from "../../kernel/index.js";
import { AgentSettledSchema, EventOptionsSchema, eventOptionsSetting, MessageUpdatesSchema, startingEventOptions, type EventOptions } from "./api.js";

export { deltaUpdate, DEFAULT_EVENT_OPTIONS, type EventOptions, type EventOptionsApi } from "./api.js";

export default definePlugin({
  name: "event-options",
  description: "Event options: message_update deltas, and whether agent_settled is written.",
  provides: ["eventOptions"],
  settings: { eventOptions: eventOptionsSetting },
  apply(k) {
    let options: EventOptions = startingEventOptions(k.config.settings);
    k.provide("eventOptions", {
      current: () => ({ ...options }),
      get deltaUpdates() {
        return options.messageUpdates === "delta";
      },
    });
    k.registerEvent("agent_settled", AgentSettledSchema);
    // Last, so every other settled tap (deferred writes, extensions) has run before clients hear it.
    k.hooks.agent_settled.tap({ name: k.name, order: "post" }, ({ aborted }) => {
      if (options.agentSettled) k.events.emit("agent_settled", { aborted });
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
              agentSettled: z.boolean().optional().meta({ description: "true (the default): one `agent_settled` event once each prompt is fully done; false: none." }),
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
