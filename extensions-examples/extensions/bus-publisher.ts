/**
 * Example extension pair, part 1 (with bus-subscriber.ts): extensions talk over `pi.events`, a
 * bus of named channels. This one publishes: `/announce <text>` emits `demo:announce`, and every
 * finished run emits `demo:run-finished` with the number of messages it produced.
 *
 * Install: copy both files into ~/.atomic/agent/extensions/.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
  pi.registerCommand("announce", {
    description: "Publish a line on the demo:announce channel",
    handler: async (args) => pi.events.emit("demo:announce", { text: args.trim(), at: Date.now() }),
  });
  pi.on("agent_end", (event) => pi.events.emit("demo:run-finished", { messages: event.messages.length }));
}
