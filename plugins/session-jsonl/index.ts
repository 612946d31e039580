/**
 * Plugin `session-jsonl`: provides the `sessionStore` service that keeps each session in one
 * JSONL file under `<agent dir>/sessions/--<cwd>--/`, and lists them (cached by size and mtime).
 * With --no-session it still reads and lists files (switch_session) but new sessions stay in memory.
 */
import { z } from "zod";
import { definePlugin, defineSetting } from "../../kernel/index.js";
import { resolveSessionDir, sessionsRoot } from "./paths.js";
import { isSessionFile } from "./session-info-file.js";
import { SessionLister } from "./session-list.js";
import { createJsonlStore } from "./store.js";

export { encodeCwd, resolveSessionDir, sessionFileName, sessionsRoot } from "./paths.js";
export { createJsonlStore, JsonlFileStorage } from "./store.js";

declare module "../../kernel/config.js" {
  interface Settings {
    sessionDir?: string;
  }
  interface CliOptions {
    noSession?: boolean;
    sessionDir?: string;
  }
}

export default definePlugin({
  name: "session-jsonl",
  description: "JSONL file storage for sessions",
  provides: ["sessionStore"],
  settings: {
    // It relocates the transcript: a cloned project may not point it into the repository.
    sessionDir: defineSetting(() => z.string(), { scope: "trusted", description: "Folder for session files (default <agent dir>/sessions/--<cwd>--)." }),
  },
  flags: [
    { name: "--no-session", key: "noSession", description: "Keep the session in memory only (nothing written to disk)." },
    { name: "--session-dir", key: "sessionDir", value: "<path>", description: "Directory for session files, used as given (default: <agent dir>/sessions/--<cwd>--)." },
  ],
  apply(k) {
    const { agentDir, cwd, cli, settings, env } = k.config;
    const sessionDir = resolveSessionDir({
      agentDir,
      cwd,
      cliDir: cli.sessionDir,
      envDir: env.ATOMIC_CODING_AGENT_SESSION_DIR,
      settingsDir: settings.sessionDir,
      env,
    });
    const store = createJsonlStore({ sessionDir, cwd, persistent: !cli.noSession, warn: (message) => k.log.warn(message) });
    // One cache of session facts for the agents of the process (siblings): a folder listed by
    // one is warm for the others; each file is checked by size and mtime, so a session another
    // agent wrote since is read again.
    const lister = k.shared.acquire("session-jsonl.lister", () => new SessionLister()).value;
    k.provide("sessionStore", {
      ...store,
      // This folder's sessions, or every folder under <agent dir>/sessions (and this one, wherever it is).
      list: async ({ all = false } = {}) => lister.list(all ? [...(await lister.folders(sessionsRoot(agentDir))), sessionDir] : [sessionDir]),
      latest: () => lister.latest(sessionDir),
      isSessionFile,
    });
  },
});
