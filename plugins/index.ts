/**
 * `atomic-agent/plugins`: the types of the built-in plugins, for plugins written outside this
 * repository: their service APIs, and (through these modules) the settings, flags and events
 * they declare, so `k.service("agent")` or `k.config.settings.retry` are typed there too.
 * Types only: nothing here runs.
 */
export type { AgentApi, CompletionRequest, PromptDisposition, PromptInput, QueuedInputDisposition, QueueMode, StateContributor } from "./agent/api.js";
export type { AuthStatus, LoginResolver, ModelsApi, ModelsDiagnostics, ProviderRegistration } from "./models/api.js";
export type { LoadedSession, SessionApi, SessionContext, SessionInfo, SessionStorage, SessionStore, TreeNode } from "./session/api.js";
export type { SettingsApi } from "./settings/api.js";
export type { CompactionApi, CompactOptions } from "./compaction/api.js";
export type { EventOptions, EventOptionsApi } from "./event-options/api.js";
export type { DialogsApi, ExtensionsApi, ExtensionSummary, UiResponse } from "./extensions/api.js";
export type { CodemodeApi } from "./codemode/api.js";
export type { McpApi, McpExposure, McpServerSource, McpServerState, McpServerStatus, McpStatus, McpToolStatus, RegisteredMcpServer } from "./mcp/api.js";
export type { SlashCommandEntry, SlashCommandProvider, SlashCommandsApi, SlashCommandSource } from "./slash-commands/api.js";
export type { LoadedPackage, PackageResolution, PackagesApi, PackageScope, PackageSetting } from "./packages/api.js";
export type { CommandSpawn, ConfinedSpawn, ConfineOptions, FileGuard, SandboxApi, SandboxMode, SandboxPolicy, SandboxSetting, SandboxState } from "./sandbox/api.js";
// Every module that declares settings, flags, events or services, so their augmentations apply.
export type {} from "./agent/api.js";
export type {} from "./agent/events.js";
export type {} from "./agent/settings.js";
export type {} from "./bash/api.js";
export type {} from "./bash/index.js";
export type {} from "./bash/user-bash.js";
export type {} from "./codemode/api.js";
export type {} from "./codemode/index.js";
export type {} from "./compaction/api.js";
export type {} from "./compaction/events.js";
export type {} from "./compaction/settings.js";
export type {} from "./context-files/index.js";
export type {} from "./event-options/api.js";
export type {} from "./extensions/api.js";
export type {} from "./extensions/events.js";
export type {} from "./mcp/api.js";
export type {} from "./login/index.js";
export type {} from "./login/protocol.js";
export type {} from "./mcp/index.js";
export type {} from "./models/api.js";
export type {} from "./models/declarations.js";
export type {} from "./packages/api.js";
export type {} from "./prompt-templates/index.js";
export type {} from "./provider-anthropic/settings.js";
export type {} from "./provider-replay/index.js";
export type {} from "./retry/events.js";
export type {} from "./retry/settings.js";
export type {} from "./sandbox/api.js";
export type {} from "./session-jsonl/index.js";
export type {} from "./session/api.js";
export type {} from "./session/index.js";
export type {} from "./settings/api.js";
export type {} from "./skills/index.js";
export type {} from "./slash-commands/api.js";
export type {} from "./tools/active-tools.js";
export type {} from "./transport-print/index.js";
export type {} from "./transport-server/index.js";
export type {} from "./transport-server/settings.js";
