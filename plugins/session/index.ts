/**
 * Plugin `session`: the append-only session tree behind the conversation. It records every
 * message, model and thinking-level change as an entry, owns the session commands, and hands
 * persistence to the `sessionStore` service (plugin session-jsonl) or keeps sessions in memory.
 */
import { definePlugin } from "../../kernel/index.js";
import type { SessionApi } from "./api.js";
import { lifecycleCommands } from "./lifecycle-commands.js";
import { queryCommands } from "./query-commands.js";
import { SessionRuntime } from "./runtime.js";

export type * from "./api.js";
export { buildSessionContext } from "./context.js";

export default definePlugin({
  name: "session",
  description: "Session tree, persistence wiring and the session commands",
  dependsOn: ["agent", "models"],
  apply(k) {
    const runtime = new SessionRuntime(k);
    for (const command of [...lifecycleCommands(k, runtime), ...queryCommands(k, runtime)]) k.registerCommand(command);

    const current = () => runtime.manager.current;
    const api: SessionApi = {
      header: () => current().header,
      entries: () => current().tree.entries(),
      leafId: () => current().tree.leafId,
      branch: () => current().tree.branch(),
      context: () => runtime.context(),
      sessionFile: () => current().storage.file,
      sessionName: () => current().tree.name,
      append: (entry) => runtime.manager.append(entry),
      flush: () => runtime.manager.flush(),
    };
    k.provide("session", api);

    runtime.tapRecording();
    k.service("agent").addStateContributor(() => runtime.stateFields());
    // The store is looked up at boot: session-jsonl may be applied after this plugin.
    k.hooks.boot.tapPromise(k.name, () => runtime.start());
  },
});
