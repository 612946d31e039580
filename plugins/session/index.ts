/**
 * Plugin `session`: the append-only session tree behind the conversation. It records every
 * message, model and thinking-level change as an entry, owns the session commands, and hands
 * persistence to the `sessionStore` service (plugin session-jsonl) or keeps sessions in memory.
 */
import { z } from "zod";
import { definePlugin } from "../../kernel/index.js";
import { EntryAppendedSchema, SessionInfoChangedSchema, sessionVocabulary, SessionWriteErrorSchema, type SessionApi } from "./api.js";
import { currentSessionHandle } from "./handle.js";
import { lifecycleCommands } from "./lifecycle-commands.js";
import { listSessionsCommand } from "./list-command.js";
import { queryCommands } from "./query-commands.js";
import { sessionHookDeclarations } from "./hooks.js";
import { SessionRuntime } from "./runtime.js";
import { sessionFlags } from "./startup-session.js";

export type * from "./api.js";
export { buildSessionContext } from "./context.js";

declare module "../../kernel/config.js" {
  interface CliOptions {
    name?: string;
    continue?: boolean;
    resume?: boolean;
    session?: string;
    sessionId?: string;
    fork?: string;
    /**
     * No command-line flag: set by whoever opens an agent for a client (atomic serve). The model
     * (`provider`/`model`) or thinking level (`thinking`) named here is only a default: a resumed
     * session's own last choice of it wins, where on a command line the flag wins.
     */
    sessionChoiceWins?: readonly ("model" | "thinking")[];
  }
}

export default definePlugin({
  name: "session",
  description: "Session tree, persistence wiring and the session commands",
  provides: ["session"],
  requires: ["agent", "models"],
  after: ["session-jsonl"],
  flags: sessionFlags,
  hooks: sessionHookDeclarations,
  apply(k) {
    const runtime = new SessionRuntime(k, k.ownHooks(sessionHookDeclarations));
    k.registerVocabulary(sessionVocabulary());
    for (const command of [...lifecycleCommands(runtime), ...queryCommands(runtime), listSessionsCommand(k, () => (runtime.started ? runtime.manager.flush() : Promise.resolve()))])
      k.registerCommand(command);

    const current = () => runtime.manager.current;
    const api: SessionApi = {
      header: () => current().header,
      entries: () => current().tree.entries(),
      leafId: () => current().tree.leafId,
      branch: () => current().tree.branch(),
      context: () => runtime.context(),
      sessionFile: () => current().storage.file,
      sessionName: () => current().tree.name,
      setSessionName: (name) => runtime.setSessionName(name),
      append: (entry) => {
        const stored = runtime.manager.append(entry);
        // Entries a command stores are in its answer; an extension's data is news (pi 1.x).
        if (stored.type === "custom") k.events.emit("entry_appended", { entry: stored });
        return stored;
      },
      flush: () => runtime.manager.flush(),
      unsaved: () => {
        const { storage } = current();
        return storage.unsaved ? storage.unsaved() : storage.flush().then(() => undefined);
      },
      handle: () => currentSessionHandle(runtime.manager),
    };
    k.provide("session", api);

    runtime.tapRecording();
    k.service("agent").addStateContributor(
      () => runtime.stateFields(),
      () => ({
        sessionFile: z.string().optional().meta({ description: "Absent for an in-memory session (--no-session)." }),
        sessionId: z.string().describe("The session's id (uuid)."),
        sessionName: z
          .string()
          .optional()
          .meta({ description: "Absent until set_session_name or --name. On one line: control characters a stored name holds are shown as spaces." }),
        sessionWriteError: z.string().optional().meta({ description: "Set while the current session file cannot be written (see session_write_error)." }),
      }),
    );
    k.registerEvent("session_write_error", SessionWriteErrorSchema);
    k.registerEvent("session_info_changed", SessionInfoChangedSchema);
    k.registerEvent("entry_appended", EntryAppendedSchema);
    // In the start phase, after models picked the startup model (configure): the startup model
    // and thinking level are settings, not session history, so they are not recorded.
    k.hooks.boot_start.tapPromise(k.name, () => runtime.start());
    // `agent_settled` is the "really done" signal: by then the session file holds every entry of
    // the prompt, so a client may read it (a write error is reported as session_write_error).
    k.hooks.agent_settled.tapPromise(k.name, () => runtime.manager.flush().catch(() => undefined));
  },
});
