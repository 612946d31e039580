/**
 * Plugin `settings`: writes setting changes (a chosen model, queue modes, ...) into the user's
 * settings file for every plugin, through the locked, atomic JSON writer. Reading and validating
 * settings is the host's job (each plugin declares the keys it owns).
 */
import { deepMerge, definePlugin, userSettingsPath } from "../../kernel/index.js";
import { sharedJsonUpdates } from "../../lib/locked-json/index.js";
import type { SettingsApi } from "./api.js";

export type { SettingsApi } from "./api.js";

export default definePlugin({
  name: "settings",
  description: "Locked, atomic writes of the user's settings file.",
  provides: ["settings"],
  apply(k) {
    const userFile = userSettingsPath(k.config.agentDir);
    // Sibling agents' writes queue in the process before the file lock.
    const updates = sharedJsonUpdates(k.shared);
    const api: SettingsApi = {
      userFile,
      async update(patch) {
        await updates.update(userFile, (current) => deepMerge(current, patch));
      },
    };
    k.provide("settings", api);
  },
});
