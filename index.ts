/**
 * `atomic-agent`: what a plugin author needs, as an explicit list. Define a plugin, its
 * commands, tools, settings, flags, hooks and events; the errors to throw; the message and
 * model vocabulary; and the payloads of the hooks most plugins tap. Embedders boot hosts with
 * `atomic-agent/host`; the built-in plugins' service types are in `atomic-agent/plugins`.
 */
export { definePlugin, type PluginDefinition, type PluginContext, type OpenLayer } from "./kernel/plugin.js";
export { defineCommand, NO_DATA, type CommandDefinition, type CommandContext } from "./kernel/commands.js";
export { defineTool, type ToolDefinition, type ToolResult, type ToolContent, type ToolExecutionContext } from "./kernel/tools.js";
export { defineSetting, type SettingSpec } from "./kernel/settings.js";
export { UsageError, type FlagSpec } from "./kernel/flags.js";
export { guard, transform, notify, internal, type DeclaredHooks, type HookCatalog, type HookPayload } from "./kernel/hooks.js";
export type { TapSpec } from "./kernel/hook-access.js";
export type { EventMap, OutEvent } from "./kernel/events.js";
export type { Services } from "./kernel/services.js";
export type { Settings, CliOptions, KernelConfig } from "./kernel/config.js";
export { KernelError, ErrorCode } from "./kernel/errors.js";
export type { Logger } from "./kernel/logger.js";
export type { TransportDefinition, TransportHost } from "./kernel/transport.js";
export type {
  AgentMessage,
  UserMessage,
  AssistantMessage,
  ToolResultMessage,
  CustomMessage,
  TextContent,
  ImageContent,
  ToolCall,
  Usage,
  Model,
  ThinkingLevel,
  AssistantMessageEvent,
  AssistantStream,
  StreamRequest,
} from "./lib/llm/index.js";
export type { InputEvent, ToolCallEvent, ToolResultEvent, BeforeAgentStartEvent } from "./plugins/agent/api.js";
// The built-in plugins' hooks, events, settings and services: typed wherever this module is.
export type {} from "./plugins/index.js";
