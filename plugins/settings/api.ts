/** The `settings` service: the one writer of the user's settings file, for every plugin. */

export interface SettingsApi {
  /** `<agent dir>/settings.json`. */
  readonly userFile: string;
  /**
   * Deep-merges `patch` into the user's settings file (objects merge, other values replace),
   * under a lock and atomically. Fails naming the file, and changes nothing, when the file
   * cannot be read, parsed or written. `config.settings` stays the startup snapshot: the plugin
   * that owns a setting applies the change to its own state.
   */
  update(patch: Record<string, unknown>): Promise<void>;
}

declare module "../../kernel/services.js" {
  interface Services {
    settings: SettingsApi;
  }
}
