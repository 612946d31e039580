/**
 * `atomic-agent/plugins`: the types of the built-in plugins, for plugins written outside this
 * repository: their service APIs, and (through these modules) the settings, flags and events
 * they declare, so `k.service("agent")` or `k.config.settings.retry` are typed there too.
 * Types only: nothing here runs.
 */
export type { AgentApi, CompletionRequest, PromptInput, QueueMode, StateContributor } from "./agent/api.js";
export type { AuthStatus, ModelsApi, ProviderRegistration } from "./models/api.js";
export type { LoadedSession, SessionApi, SessionContext, SessionStorage, SessionStore, TreeNode } from "./session/api.js";
export type { SettingsApi } from "./settings/api.js";
export type { default as AgentPlugin } from "./agent/index.js";
export type { default as ModelsPlugin } from "./models/index.js";
export type { default as RetryPlugin } from "./retry/index.js";
export type { default as BashPlugin } from "./bash/index.js";
export type { default as SessionPlugin } from "./session/index.js";
export type { default as SessionJsonlPlugin } from "./session-jsonl/index.js";
export type { ExtensionsApi, ExtensionSummary } from "./extensions/api.js";
export type { default as ExtensionsPlugin } from "./extensions/index.js";
