/**
 * The options a sibling host boots with: the launch's (its plugin definitions, flags, settings
 * overrides, trust, process scope) with what the sibling chooses for itself laid over them. The
 * launch's choice of session is its own agent's: a sibling opens the session it names, else a
 * new one.
 */
import { deepMerge, type PluginDefinition, type SiblingOptions } from "../kernel/index.js";
import type { HostOptions } from "./host.js";

/** The launch's session flags: they pick the launch's own session and never a sibling's. */
const LAUNCH_SESSION_KEYS = ["continue", "resume", "session", "sessionId", "fork", "name"] as const;

export function siblingHostOptions(launch: HostOptions, definitions: readonly PluginDefinition[], sibling: SiblingOptions): HostOptions {
  const cli: Record<string, unknown> = { ...launch.cli };
  for (const key of LAUNCH_SESSION_KEYS) cli[key] = undefined;
  if (sibling.resume !== undefined) cli.session = sibling.resume;
  else if (sibling.sessionId !== undefined) cli.sessionId = sibling.sessionId;
  if (sibling.noSession !== undefined) cli.noSession = sibling.noSession;
  // A model or provider of its own replaces the launch's pair (the launch's provider may not serve that model).
  if (sibling.provider !== undefined || sibling.model !== undefined) {
    cli.provider = sibling.provider;
    cli.model = sibling.model;
  }
  if (sibling.thinkingLevel !== undefined) cli.thinking = sibling.thinkingLevel;
  Object.assign(cli, sibling.flags);
  const settings = sibling.settings ? deepMerge(launch.settings ?? {}, sibling.settings) : launch.settings;
  // The launch's own flags given in code were checked when it booted: not once more per sibling.
  const { codeFlags: _checked, ...launched } = launch;
  return {
    ...launched,
    cwd: sibling.cwd,
    cli,
    // A sibling reuses the loaded definitions (user plugins included): nothing is imported twice.
    plugins: definitions,
    userPlugins: false,
    approvedFolder: launch.approvedFolder ?? launch.cwd,
    ...(settings ? { settings } : {}),
    ...(sibling.log ? { log: sibling.log } : {}),
    ...(sibling.dialogs !== undefined ? { dialogs: sibling.dialogs } : {}),
  };
}
