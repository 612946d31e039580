/**
 * `atomic-agent/host`: booting a kernel with its plugins, for embedders and entry points (the
 * CLI, the SDK, tests). One boot sequence: settings files composed from the plugins that own
 * them, plugins loaded and applied, boot phases, flags checked, a scheduler for every
 * transport, and one teardown.
 */
export { createHost, prepareHost, type HostOptions, type PreparedHost } from "./host.js";
export { HostRuntime } from "./runtime.js";
export { PluginLoader, isBuiltinSpec, packageAliases, type LoaderOptions } from "./loader.js";
export { Scheduler, INVALID_COMMAND, failure } from "./scheduler.js";
export { composeFlags, parseFlags, flagHelp, UnknownOptionError, CORE_FLAGS, type ParsedFlags } from "./argv.js";
export {
  checkSettingsFile,
  composeSettings,
  readRawSettings,
  resolveSettings,
  unknownSettingsOf,
  validateSettingsFile,
  CORE_SETTINGS,
  type ComposedSetting,
  type RawSettingsFile,
  type ResolvedSettings,
} from "./settings-files.js";
export { protocolSchema, pascalCase, type JsonSchema, type ProtocolSource } from "./protocol-schema.js";
export { claimStdout, type ClaimedStdout } from "../lib/stdout/index.js";
export { resolveAgentDir, ProcessScope } from "../kernel/index.js";
export type { EmbeddedHost, TransportHost, TransportDefinition, Response, SubmitOptions, SiblingOptions, ShutdownReason, KernelConfig } from "../kernel/index.js";
export { PI_ONLY_SETTINGS } from "./unknown-settings.js";
