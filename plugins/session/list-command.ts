/** `list_sessions`: the stored sessions of this folder (or of every folder with `all`), newest first. */
import { z } from "zod";
import { defineCommand, type CommandDefinition, type PluginContext } from "../../kernel/index.js";
import { SessionInfoSchema } from "./api.js";

export function listSessionsCommand(k: PluginContext): CommandDefinition<any, any> {
  return defineCommand({
    name: "list_sessions",
    description: "Stored sessions of the working folder (or of every folder with all: true), newest first, as pi's SessionInfo.",
    input: () => z.object({ all: z.boolean().optional().meta({ description: "Every session folder, not only this working folder's." }) }),
    output: () => z.object({ sessions: z.array(SessionInfoSchema()).meta({ description: "Newest first (by modified)." }) }),
    // Without a store that can list (no session-jsonl), nothing is stored to list.
    run: async ({ all }) => ({ sessions: (await k.maybeService("sessionStore")?.list?.({ all: all ?? false })) ?? [] }),
  });
}
