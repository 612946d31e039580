/**
 * The object an extension's default export receives (`pi`): event subscriptions, registrations
 * (tools, commands, flags, providers) and actions on the agent and the session. pi's API, so a
 * pi extension works unchanged; what Atomic does differently is said on each member.
 */
import type { z } from "zod";
import type { AssistantMessage, ImageContent, Model, TextContent, ThinkingLevel } from "../../../lib/llm/index.js";
import type { Context, SimpleStreamOptions } from "./llm.js";
import type { Static, TSchema } from "./schema.js";
import type { ExtensionCommandContext, ExtensionContext, ExtensionToolContext } from "./context.js";
import type { CustomMessageInput, ExtensionEvent, ExtensionEventName, ExtensionEventResult } from "./events.js";
import type { RegisteredMcpServer } from "../../mcp/api.js";

export type ExtensionHandler<E, R = void> = (event: E, ctx: ExtensionContext) => R | void | Promise<R | void>;

/** Tool parameters: a TypeBox schema (Atomic's `Type`), any plain JSON Schema object, or a zod schema. */
export type ToolParametersSchema = TSchema | z.ZodType;
export type ToolParams<S> = S extends z.ZodType ? z.output<S> : Static<S>;

export interface ToolResultContent<TDetails = unknown> {
  content: (TextContent | ImageContent)[];
  details?: TDetails;
  isError?: boolean;
  /** pi 1.x's machine-readable result (see `outputSchema`): accepted; the model is sent `content`. */
  structuredContent?: unknown;
  /** Ends the run after this tool batch, with no further LLM call, when every result of the batch says so (as in pi 1.x). */
  terminate?: boolean;
}

export type ToolUpdateCallback<TDetails = unknown> = (partial: ToolResultContent<TDetails>) => void;

/** How the model reaches a tool (pi 1.x): `codemode` and `deferred` tools start inactive and codemode scripts call them (docs/codemode.md). */
export type ToolExposure = "direct" | "model-only" | "codemode" | "deferred" | "hidden";

/** Hints about what a tool does (MCP's tool annotations); not verified. */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A group of related tools, such as one MCP server's. */
export interface ToolNamespace {
  name: string;
  aliases?: readonly string[];
  description?: string;
  instructions?: string;
}

/** Where a registration comes from (pi's `SourceInfo`). */
export interface SourceInfo {
  path: string;
  source: string;
  scope: "user" | "project" | "temporary";
  origin: "package" | "top-level";
  baseDir?: string;
}

export interface ToolDefinition<S extends ToolParametersSchema = TSchema, TDetails = unknown> {
  name: string;
  /** A display name (clients may show it); not sent to the model. */
  label?: string;
  description: string;
  parameters: S;
  /** Reshapes the model's raw arguments before validation. */
  prepareArguments?: (args: unknown) => unknown;
  /** Reported as `toolSnippets` in the system prompt options. */
  promptSnippet?: string;
  promptGuidelines?: string[];
  /** Accepted; Atomic runs a turn's tool calls one after another. */
  executionMode?: "sequential" | "parallel";
  /** Default `direct`. Registering a `direct` or `model-only` tool activates it; `hidden` tools never are. */
  exposure?: ToolExposure;
  /** `false`: registered inactive (`--tools` or `setActiveTools` activates it). */
  defaultActive?: boolean;
  annotations?: ToolAnnotations;
  namespace?: ToolNamespace;
  /** JSON Schema of a result's `structuredContent`; reported by getAllTools. */
  outputSchema?: TSchema;
  /** Which tools a call may reach (for tools that call others); reported by getAllTools. */
  reachesTools?: (input: Record<string, unknown>) => "all" | readonly string[];
  /** Accepted, not called: Atomic presents every active tool as it is. */
  prepareLoadout?: (loadout: unknown) => unknown;
  /** Accepted, not sent: Atomic's providers have no constrained sampling. */
  constrainedSampling?: false | Record<string, unknown>;
  /** Throw to return an error result; a result with `isError: true` is one too. */
  execute(
    toolCallId: string,
    params: ToolParams<S>,
    signal: AbortSignal | undefined,
    onUpdate: ToolUpdateCallback<TDetails> | undefined,
    ctx: ExtensionToolContext,
  ): Promise<ToolResultContent<TDetails>>;
  /** TUI rendering: accepted and ignored. */
  renderCall?: (...args: any[]) => unknown;
  renderResult?: (...args: any[]) => unknown;
  renderShell?: "default" | "self";
}

export interface RegisteredCommandOptions {
  description?: string;
  /** Autocompletion for interactive clients: accepted, not used over RPC. */
  getArgumentCompletions?: (prefix: string) => unknown;
  handler(args: string, ctx: ExtensionCommandContext): void | Promise<void>;
}

export interface FlagOptions {
  description?: string;
  type: "boolean" | "string";
  default?: boolean | string;
}

export interface ExecOptions {
  signal?: AbortSignal;
  /** Milliseconds; the process is killed when it expires (`killed: true`). */
  timeout?: number;
  cwd?: string;
}

export interface ExecResult {
  stdout: string;
  stderr: string;
  code: number;
  killed: boolean;
}

export interface ProviderModelConfig {
  id: string;
  name?: string;
  api?: string;
  baseUrl?: string;
  reasoning?: boolean;
  input?: ("text" | "image")[];
  cost?: { input: number; output: number; cacheRead: number; cacheWrite: number };
  contextWindow?: number;
  maxTokens?: number;
  headers?: Record<string, string>;
  compat?: Record<string, unknown>;
}

export interface ProviderConfig {
  name?: string;
  baseUrl?: string;
  /** A literal key, an environment variable name, `$VAR` or `!command` (as in models.json). */
  apiKey?: string;
  api?: string;
  headers?: Record<string, string>;
  /** Also send the key as `Authorization: Bearer <key>`. */
  authHeader?: boolean;
  models?: ProviderModelConfig[];
  /** A stream function for a custom API: its events are Atomic's unified assistant events. */
  streamSimple?: (model: Model, context: Context, options?: SimpleStreamOptions) => AsyncIterable<import("../../../lib/llm/index.js").AssistantMessageEvent>;
  /** Not run by Atomic (`atomic login` covers pi's built-in providers): reported as an extension error. */
  oauth?: unknown;
}

export interface SlashCommandInfo {
  name: string;
  description?: string;
  source: "extension" | "prompt" | "skill";
  location?: "user" | "project" | "path";
  path?: string;
}

export interface ToolInfo {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  promptGuidelines?: string[];
  exposure: ToolExposure;
  namespace?: ToolNamespace;
  annotations?: ToolAnnotations;
  reachesTools?: (input: Record<string, unknown>) => "all" | readonly string[];
  sourceInfo: SourceInfo;
}

/** A virtual model's routing request: which physical model (and thinking level) answers this call. */
export interface ModelRouteRequest<TState = unknown> {
  /** The selected virtual model. */
  model: Model;
  thinkingLevel: ThinkingLevel;
  /**
   * `user`: the first call after a user message; `continuation`: any other call of a run; `retry`:
   * the automatic retry of a failed call (after a transient error, or after compacting an
   * overflowed context); `direct`: a call outside the conversation.
   */
  reason: "user" | "continuation" | "retry" | "direct";
  /** The physical model (and level) of the latest successful answer in `messages`. */
  previous?: { model: Model; thinkingLevel?: ThinkingLevel };
  /**
   * For `retry`: the failed call, which `messages` no longer holds; `message` carries its
   * `stopReason` and `errorMessage`. Absent when the router itself failed.
   */
  failed?: { model: Model; thinkingLevel?: ThinkingLevel; message: AssistantMessage };
  /** The state this router last returned on the session branch (not for `direct` calls). */
  state?: TState;
  messages: readonly unknown[];
  signal?: AbortSignal;
}

export interface ModelRoute<TState = unknown> {
  model: Model;
  thinkingLevel: ThinkingLevel;
  /** New router state (JSON), stored on the session branch; undefined keeps the current one. */
  state?: TState;
}

export interface ExtensionVirtualModel<TState = unknown> {
  provider: string;
  id: string;
  name: string;
  /** Levels offered for selection; default `["off"]`. */
  thinkingLevels?: readonly ThinkingLevel[];
  contextWindow?: number;
  maxTokens?: number;
  input?: ("text" | "image")[];
  route(request: ModelRouteRequest<TState>, ctx: ExtensionContext): ModelRoute<TState> | Promise<ModelRoute<TState>>;
}
export type VirtualModelDefinition<TState = unknown> = ExtensionVirtualModel<TState>;

/** The inter-extension bus: channels are any string; handlers run in subscription order. */
export interface ExtensionEventBus {
  on(channel: string, handler: (data: unknown) => void | Promise<void>): () => void;
  emit(channel: string, data?: unknown): void;
}

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
/** One overload per event, so a handler's event and answer are typed by the event's name. */
export type OnEvent = UnionToIntersection<
  { [K in ExtensionEventName]: (event: K, handler: ExtensionHandler<ExtensionEvent<K>, ExtensionEventResult<K>>) => () => void }[ExtensionEventName]
>;

export interface ExtensionAPI {
  /** Returns a function that unsubscribes the handler. */
  on: OnEvent;
  registerTool<S extends ToolParametersSchema = TSchema, TDetails = unknown>(tool: ToolDefinition<S, TDetails>): void;
  registerCommand(name: string, options: RegisteredCommandOptions): void;
  /** Accepted: there is no keyboard in a headless agent, so shortcuts never fire. */
  registerShortcut(shortcut: string, options: { description?: string; handler: (ctx: ExtensionContext) => void | Promise<void> }): void;
  /** `--<name>` on the command line; read it with getFlag. */
  registerFlag(name: string, options: FlagOptions): void;
  getFlag(name: string): boolean | string | undefined;
  /** TUI rendering: accepted and ignored. */
  registerMessageRenderer(customType: string, renderer: unknown): void;
  registerEntryRenderer(customType: string, renderer: unknown): void;
  registerMarkdownTransformer(transformer: unknown, options?: unknown): void;
  registerToolRenderer(resolver: unknown): void;
  sendMessage(message: CustomMessageInput, options?: { triggerTurn?: boolean; deliverAs?: "steer" | "followUp" | "nextTurn" }): void;
  sendUserMessage(content: string | (TextContent | ImageContent)[], options?: { deliverAs?: "steer" | "followUp"; expandPromptTemplates?: boolean }): void;
  appendEntry(customType: string, data?: unknown): void;
  setSessionName(name: string): void;
  getSessionName(): string | undefined;
  setLabel(entryId: string, label: string | undefined): void;
  exec(command: string, args: string[], options?: ExecOptions): Promise<ExecResult>;
  getActiveTools(): string[];
  getAllTools(): ToolInfo[];
  /** A copy of the effective settings (user and project merged, command-line overrides applied). */
  getSettings(): Record<string, unknown>;
  /** Unknown and `hidden` tools are left out. */
  setActiveTools(toolNames: string[]): void;
  /** Extension commands now; prompt templates and skills as of the last listing. */
  getCommands(): SlashCommandInfo[];
  /** False when the model's provider has no credentials. */
  setModel(model: Model): Promise<boolean>;
  getThinkingLevel(): ThinkingLevel;
  setThinkingLevel(level: ThinkingLevel): void;
  registerProvider(name: string, config: ProviderConfig): void;
  /** Not supported by Atomic: throws. */
  unregisterProvider(name: string): void;
  /** A selectable model that routes each request to a physical model (its `route`). */
  registerVirtualModel<TState = unknown>(model: ExtensionVirtualModel<TState>): void;
  unregisterVirtualModel(provider: string, id: string): void;
  /**
   * An MCP server for this process, in the `mcpServers` entry format of mcp.json; it connects like
   * a configured one. Throws for an invalid entry or a name another extension registered; a server
   * of the same name in an mcp.json wins.
   */
  registerMcpServer(name: string, config: Record<string, unknown>): void;
  /** Removes a server this extension registered and closes its connection. */
  unregisterMcpServer(name: string): void;
  /** Every MCP server extensions registered. */
  getMcpServers(): RegisteredMcpServer[];
  events: ExtensionEventBus;
}

/** What an extension file default-exports. */
export type ExtensionFactory = (pi: ExtensionAPI) => void | Promise<void>;
