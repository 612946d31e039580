/**
 * Atomic's `@mariozechner/pi-coding-agent` for extensions: the extension API types, the pure
 * helpers, and (declared here for TypeScript, supplied by the loader with the running agent
 * bound in: `modules.ts`) the agent dir, the version, and pi-style wrappers of the built-in tools.
 */
import type { ToolDefinition } from "../types/api.js";

export type * from "../types/api.js";
export type * from "../types/context.js";
export type * from "../types/events.js";
export type { AgentMessage, CustomMessage } from "../../../lib/llm/index.js";
export type { CustomEntry, SessionEntry, SessionHeader } from "../../session/api.js";
export type { MessageEntry as SessionMessageEntry } from "../../session/api.js";

export {
  ArminComponent,
  AssistantMessageComponent,
  BashExecutionComponent,
  BranchSummaryMessageComponent,
  CompactionSummaryMessageComponent,
  CustomMessageComponent,
  copyToClipboard,
  ExtensionEditorComponent,
  ExtensionInputComponent,
  ExtensionSelectorComponent,
  FooterComponent,
  InteractiveMode,
  LoginDialogComponent,
  ModelSelectorComponent,
  OAuthSelectorComponent,
  SessionSelectorComponent,
  SettingsSelectorComponent,
  ShowImagesSelectorComponent,
  SkillInvocationMessageComponent,
  ThemeSelectorComponent,
  ThinkingSelectorComponent,
  ToolExecutionComponent,
  TreeSelectorComponent,
  UserMessageComponent,
  UserMessageSelectorComponent,
  BorderedLoader,
  CustomEditor,
  DynamicBorder,
  defineTool,
  isBashToolResult,
  isEditToolResult,
  isFindToolResult,
  isGrepToolResult,
  isLsToolResult,
  isPowerShellToolResult,
  isReadToolResult,
  isToolCallEventType,
  isWriteToolResult,
  keyHint,
  keyText,
  rawKeyHint,
  serializeConversation,
} from "./helpers.js";

export { getLanguageFromPath, highlightCode } from "./highlight.js";
export { initTheme, Theme, type ThemeBg, type ThemeColor } from "./theme.js";
export { getMarkdownTheme, getSelectListTheme, getSettingsListTheme, renderDiff, truncateToVisualLines } from "./theme-helpers.js";
export {
  createEventBus,
  createSyntheticSourceInfo,
  formatReadLineRange,
  generateDiffString,
  generateUnifiedPatch,
  parseFrontmatter,
  stripFrontmatter,
  truncateLine,
} from "./text.js";
export { formatSkillsForPrompt, loadSkills, loadSkillsFromDir, parseSkillBlock } from "./skills.js";
export {
  buildContextEntries,
  buildSessionContext,
  buildSessionProjection,
  CURRENT_SESSION_VERSION,
  getLatestCompactionEntry,
  migrateSessionEntries,
  parseSessionEntries,
  sessionEntryToContextMessages,
} from "./session-context.js";
export { SessionManager } from "./session-manager.js";
export {
  calculateContextTokens,
  DEFAULT_COMPACTION_SETTINGS,
  estimateTokens,
  findCutPoint,
  findTurnStartIndex,
  getLastAssistantUsage,
  shouldCompact,
} from "./compaction.js";
export {
  type BranchPreparation,
  type CollectEntriesResult,
  collectEntriesForBranchSummary,
  type FileOperations,
  prepareBranchEntries,
} from "./branch-entries.js";
export type { BranchSummaryResult, CompactionPreparation, CompactionResult, GenerateBranchSummaryOptions } from "./summaries.js";
export { CredentialSynchronizationError, type CredentialSynchronizationOperation, hasTrustRequiringProjectResources, type StoredCredential } from "./stores.js";
export type { CreateModelRuntimeOptions } from "./model-runtime.js";
export type { ModelScopeDiagnostic, ResolveCliModelResult, ResolveModelScopeResult } from "./model-lookup.js";
export { type ProjectTrustDecision, ProjectTrustStore, type ProjectTrustStoreEntry, type ProjectTrustUpdate } from "./trust-store.js";
export { type Args, type Mode, parseArgs } from "./args.js";
export { SettingsManager } from "./settings-manager.js";
export { DefaultResourceLoader, loadProjectContextFiles } from "./resource-loader.js";
export { createExtensionRuntime } from "./extension-runtime.js";
export { getDocsPath, getExamplesPath, getPackageDir, getReadmePath } from "./paths.js";
export { convertToPng, detectSupportedImageMimeTypeFromFile, formatDimensionNote, type ImageResizeOptions, type ResizedImage, resizeImage } from "./images.js";
export { type BashOperations, createLocalBashOperations, createLocalPowerShellOperations, getPowerShellConfig, getShellConfig, type ShellConfig } from "./shell-ops.js";
export { createPowerShellTool, createPowerShellToolDefinition, type PowerShellToolOptions } from "./powershell-tool.js";
export { RpcClient, type RpcClientOptions } from "../../../client/index.js";

/** The folder name of Atomic's configuration (`~/.atomic`, `<project>/.atomic`); pi's is `.pi`. */
export const CONFIG_DIR_NAME = ".atomic";
/** The `custom` entry type that keeps a virtual model's router state on the session branch. */
export const VIRTUAL_MODEL_STATE_ENTRY = "pi.virtual-model-state";
export { toLlmMessages as convertToLlm } from "../../agent/api.js";
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize, truncateHead, truncateTail } from "../../../lib/truncate/index.js";

/** Options of the built-in tool wrappers. `operations` (remote backends) are not supported: using them fails clearly. */
export interface BuiltinToolOptions {
  /** Working folder of the calls (default: the one given). */
  cwd?: string;
  operations?: unknown;
}

export interface BashToolOptions extends BuiltinToolOptions {
  /** Prepended to every command on its own line. */
  commandPrefix?: string;
  /** Rewrites a command before it runs: a changed `command` or `cwd` is used, `env` changes are exported first. */
  spawnHook?: (spawn: { command: string; cwd: string; env: NodeJS.ProcessEnv }) => { command: string; cwd: string; env: NodeJS.ProcessEnv };
}

/** A built-in tool as a pi tool definition: register it (spread, with your own `execute`) to wrap or replace the built-in. */
type BuiltinToolFactory<O = BuiltinToolOptions> = (cwd: string, options?: O) => ToolDefinition<any>;

/** `<agent dir>` (`~/.atomic/agent` or ATOMIC_CODING_AGENT_DIR). */
export declare const getAgentDir: () => string;
/** Atomic's version. */
export declare const VERSION: string;
export declare const createBashTool: BuiltinToolFactory<BashToolOptions>;
export declare const createReadTool: BuiltinToolFactory;
export declare const createWriteTool: BuiltinToolFactory;
export declare const createEditTool: BuiltinToolFactory;
export declare const createGrepTool: BuiltinToolFactory;
export declare const createFindTool: BuiltinToolFactory;
export declare const createLsTool: BuiltinToolFactory;
/** pi 1.x's names for the tool-definition form: the same factories. */
export declare const createBashToolDefinition: BuiltinToolFactory<BashToolOptions>;
export declare const createReadToolDefinition: BuiltinToolFactory;
export declare const createWriteToolDefinition: BuiltinToolFactory;
export declare const createEditToolDefinition: BuiltinToolFactory;
export declare const createGrepToolDefinition: BuiltinToolFactory;
export declare const createFindToolDefinition: BuiltinToolFactory;
export declare const createLsToolDefinition: BuiltinToolFactory;
/** read, bash, edit, write. */
export declare const createCodingTools: (cwd: string, options?: BuiltinToolOptions) => ToolDefinition<any>[];
/** read, grep, find, ls. */
export declare const createReadOnlyTools: (cwd: string, options?: BuiltinToolOptions) => ToolDefinition<any>[];
/** pi's discovery and recorded load: `configuredPaths`, then the agent dir's and the project's extension folders. */
export declare const discoverAndLoadExtensions: (
  configuredPaths: string[],
  cwd: string,
  agentDir?: string,
  eventBus?: import("./text.js").EventBus,
) => Promise<import("./extension-runtime.js").LoadExtensionsResult>;
/** The provider's entry of `<agent dir>/auth.json` (or `authPath`), read now; undefined when absent or unreadable. */
export declare const readStoredCredential: (providerId: string, authPath?: string) => import("./stores.js").StoredCredential | undefined;
/** The model `--provider` / `--model` name, by Atomic's rules, from the running agent's catalog (the `modelRuntime` option is not read). */
export declare const resolveCliModel: (options: import("./model-lookup.js").ResolveCliModelOptions) => import("./model-lookup.js").ResolveCliModelResult;
/** The models `--models` patterns name, from the running agent's catalog (the `modelRuntime` argument is not read). */
export declare const resolveModelScopeWithDiagnostics: (
  patterns: string[],
  modelRuntime?: unknown,
  options?: unknown,
) => Promise<import("./model-lookup.js").ResolveModelScopeResult>;
/** pi's package manager (install, remove, update, resolve) over Atomic's packages plugin: `atomic install`'s places and commands. */
export declare const DefaultPackageManager: ReturnType<typeof import("./package-manager.js").packageManagerClass>;
export type DefaultPackageManager = InstanceType<typeof DefaultPackageManager>;
export type {
  ConfiguredPackage,
  MissingSourceAction,
  PackageManagerOptions,
  PathMetadata,
  ProgressCallback,
  ProgressEvent,
  ResolvedPaths,
  ResolvedResource,
} from "./package-manager.js";
export { AgentSession, type PromptOptions } from "./agent-session.js";
export type { CreateAgentSessionResult } from "./agent-session-create.js";
export type { CreateAgentSessionOptions } from "./agent-session-options.js";
/** A second agent in this process (Atomic's SDK `createAgent`), as pi's AgentSession; defaults: the running agent's working folder and agent dir. */
export declare const createAgentSession: (
  options?: import("./agent-session-options.js").CreateAgentSessionOptions,
) => Promise<import("./agent-session-create.js").CreateAgentSessionResult>;
export {
  type AgentSessionRuntimeDiagnostic,
  type AgentSessionServices,
  AgentSessionRuntime,
  type CreateAgentSessionFromServicesOptions,
  type CreateAgentSessionRuntimeFactory,
  type CreateAgentSessionRuntimeResult,
  type CreateAgentSessionServicesOptions,
} from "./agent-session-runtime.js";
type RuntimeFunctions = ReturnType<typeof import("./agent-session-runtime.js").agentSessionRuntimeFunctions>;
/** The cwd, agent dir, model catalog (the running agent's) and settings a session is made from. */
export declare const createAgentSessionServices: RuntimeFunctions["createAgentSessionServices"];
export declare const createAgentSessionFromServices: RuntimeFunctions["createAgentSessionFromServices"];
/** A runtime over the factory's session: new, switch, fork and import run that agent's session commands. */
export declare const createAgentSessionRuntime: RuntimeFunctions["createAgentSessionRuntime"];
/** A view of the running agent's model catalog (`await ModelRuntime.create()`), and pi's registry over it (what `ctx.modelRegistry` is). */
export declare const ModelRuntime: ReturnType<typeof import("./model-runtime.js").modelRuntimeClasses>["ModelRuntime"];
export declare const ModelRegistry: ReturnType<typeof import("./model-runtime.js").modelRuntimeClasses>["ModelRegistry"];
export type ModelRuntime = InstanceType<typeof ModelRuntime>;
export type ModelRegistry = InstanceType<typeof ModelRegistry>;
/** One summary call through the running agent's providers (pi's positional arguments). */
export declare const generateSummary: ReturnType<typeof import("./summaries.js").summaryFunctions>["generateSummary"];
export declare const generateSummaryWithUsage: ReturnType<typeof import("./summaries.js").summaryFunctions>["generateSummaryWithUsage"];
/** A compaction summary of `session_before_compact`'s preparation, for its `compaction` answer. */
export declare const compact: ReturnType<typeof import("./summaries.js").summaryFunctions>["compact"];
export declare const generateBranchSummary: ReturnType<typeof import("./summaries.js").summaryFunctions>["generateBranchSummary"];
/** Runs `fn` after every earlier mutation queued for the same file has finished. */
export declare const withFileMutationQueue: <T>(path: string, fn: () => Promise<T>) => Promise<T>;
