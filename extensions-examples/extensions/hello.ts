/**
 * Example extension: the smallest command. `/hello [name]` answers with a notification (an
 * `extension_ui_request` with method "notify" over RPC) and, when a name is given, adds a note
 * to the conversation that the model sees with the next prompt.
 *
 * Install: copy into ~/.atomic/agent/extensions/, or run `atomic --mode rpc -e ./hello.ts`.
 * Try:     {"type":"prompt","message":"/hello Ada"}
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function hello(pi: ExtensionAPI) {
  pi.registerCommand("hello", {
    description: "Say hello (usage: /hello [name])",
    handler: async (args, ctx) => {
      const name = args.trim() || "world";
      ctx.ui.notify(`Hello, ${name}!`, "info");
      if (args.trim()) pi.sendMessage({ customType: "hello", content: `The user's name is ${name}.`, display: false }, { deliverAs: "nextTurn" });
    },
  });
}
