/** `list_sessions`: the stored sessions of this folder (or of every folder with `all`), newest first. */
import { z } from "zod";
import { defineCommand, type CommandDefinition, type PluginContext } from "../../kernel/index.js";
import { SessionInfoSchema } from "./api.js";

/** `flushCurrent` writes what the current session owes its file, so the listing shows it as the client knows it. */
export function listSessionsCommand(k: PluginContext, flushCurrent: () => Promise<void>): CommandDefinition<any, any> {
  return defineCommand({
    name: "list_sessions",
    description:
      "Stored sessions of the working folder's session folder (with `all: true`, of every folder under `<agent dir>/sessions`), newest first (by `modified`), as pi's SessionInfo. Files that are not sessions are left out. Listing again costs a stat per file: facts are cached by size and mtime.",
    input: () => z.object({ all: z.boolean().optional().meta({ description: "Every session folder, not only this working folder's." }) }).meta({ examples: [{}] }),
    output: () =>
      z
        .object({ sessions: z.array(SessionInfoSchema()).meta({ description: "Newest first (by modified)." }) })
        .meta({ description: "`sessions`: SessionInfo[] (see Shared types), newest first." }),
    // Without a store that can list (no session-jsonl), nothing is stored to list.
    run: async ({ all }) => {
      await flushCurrent();
      return { sessions: (await k.maybeService("sessionStore")?.list?.({ all: all ?? false })) ?? [] };
    },
  });
}
