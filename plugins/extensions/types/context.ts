/**
 * What extension handlers, commands and tools are handed (`ctx`): the UI (bridged to the RPC
 * extension UI sub-protocol), read access to the session and the model catalog, and the agent's
 * controls. pi's shapes, so pi extensions work unchanged.
 */
import type { AssistantMessage, AssistantMessageEvent, Model, ThinkingLevel } from "../../../lib/llm/index.js";
import type { SystemPromptOptions } from "./events.js";
import type { SessionEntry, SessionHeader } from "../../session/api.js";
import type { Context, SimpleStreamOptions } from "./llm.js";
import type { TypedModelFunctions } from "../typed-models.js";

export interface ExtensionUIDialogOptions {
  /** Dismisses the dialog (resolved with its default) when aborted. */
  signal?: AbortSignal;
  /** Milliseconds; the dialog then resolves with its default by itself (sent to the client too). */
  timeout?: number;
}

export type WidgetPlacement = "aboveEditor" | "belowEditor";

/** Styling helpers: in a headless agent they return the text unchanged. */
export interface Theme {
  name?: string;
  fg(color: string, text: string): string;
  bg(color: string, text: string): string;
  style(text: string, options?: unknown): string;
  getFgAnsi(color: string): string;
  getBgAnsi(color: string): string;
  getColorMode(): string;
  getThinkingBorderColor(level: string): (text: string) => string;
  getBashModeBorderColor(): (text: string) => string;
  bold(text: string): string;
  italic(text: string): string;
  underline(text: string): string;
  strikethrough(text: string): string;
  inverse(text: string): string;
  dim(text: string): string;
}

export interface ExtensionUIContext {
  select(title: string, options: string[], opts?: ExtensionUIDialogOptions): Promise<string | undefined>;
  confirm(title: string, message: string, opts?: ExtensionUIDialogOptions): Promise<boolean>;
  input(title: string, placeholder?: string, opts?: ExtensionUIDialogOptions): Promise<string | undefined>;
  editor(title: string, prefill?: string, opts?: ExtensionUIDialogOptions): Promise<string | undefined>;
  notify(message: string, type?: "info" | "warning" | "error"): void;
  setStatus(key: string, text: string | undefined): void;
  /** String lines only; a component factory (TUI) is ignored. */
  setWidget(key: string, content: string[] | undefined | ((...args: any[]) => unknown), options?: { placement?: WidgetPlacement }): void;
  setTitle(title: string): void;
  setEditorText(text: string): void;
  /** Same as setEditorText (no paste handling without a terminal). */
  pasteToEditor(text: string): void;
  /** Always "" (the client's editor is not readable from the agent). */
  getEditorText(): string;
  /** TUI only: resolves with undefined. */
  custom<T>(...args: any[]): Promise<T | undefined>;
  /** TUI only: no-ops. */
  setWorkingMessage(message?: string): void;
  setWorkingVisible(visible: boolean): void;
  setWorkingIndicator(options?: unknown): void;
  setHiddenThinkingLabel(label?: string): void;
  setFooter(factory: unknown): void;
  setHeader(factory: unknown): void;
  setEditorComponent(factory: unknown): void;
  getEditorComponent(): undefined;
  addAutocompleteProvider(factory: unknown): void;
  onTerminalInput(handler: unknown): () => void;
  /** Expansion state of tool output, kept per context (not sent to the client). */
  getToolsExpanded(): boolean;
  setToolsExpanded(expanded: boolean): void;
  /** `toolOutputExpanded` is the same state as getToolsExpanded(). */
  getChatRenderSettings(): { toolOutputExpanded: boolean };
  readonly theme: Theme;
  getAllThemes(): { name: string; path: string | undefined }[];
  getTheme(name: string): Theme | undefined;
  setTheme(theme: string | Theme): { success: boolean; error?: string };
}

/** Read access to the current session (pi's `ReadonlySessionManager`). */
export interface ReadonlySessionManager {
  getCwd(): string;
  getSessionDir(): string | undefined;
  getSessionId(): string;
  getSessionFile(): string | undefined;
  getSessionName(): string | undefined;
  getHeader(): SessionHeader;
  getLeafId(): string | null;
  getLeafEntry(): SessionEntry | undefined;
  getEntry(id: string): SessionEntry | undefined;
  getLabel(id: string): string | undefined;
  /** Root to leaf (or to `fromId`). */
  getBranch(fromId?: string): SessionEntry[];
  /** Every entry, every branch, in append order. */
  getEntries(): SessionEntry[];
  getTree(): SessionTreeNode[];
}

export interface SessionTreeNode {
  entry: SessionEntry;
  children: SessionTreeNode[];
}

export type ApiKeyLookup = { ok: true; apiKey: string | undefined; headers: Record<string, string> } | { ok: false; error: string };

/** The model catalog and credentials (pi's `ModelRegistry`, read side). */
export interface ModelRegistryView extends TypedModelFunctions {
  find(provider: string, modelId: string): Model | undefined;
  getAll(): Model[];
  getAvailable(): Model[];
  hasConfiguredAuth(model: Model): boolean;
  getApiKey(model: Model): Promise<string | undefined>;
  getApiKeyForProvider(provider: string): Promise<string | undefined>;
  getApiKeyAndHeaders(model: Model): Promise<ApiKeyLookup>;
  /** One LLM call outside the conversation. */
  complete(model: Model, context: Context, options?: SimpleStreamOptions): Promise<AssistantMessage>;
  /** The same call as a stream of events. */
  stream(model: Model, context: Context, options?: SimpleStreamOptions): AsyncIterable<AssistantMessageEvent>;
  streamSimple(model: Model, context: Context, options?: SimpleStreamOptions): AsyncIterable<AssistantMessageEvent>;
  getProviderAuthStatus(provider: string): { configured: boolean; source?: string; label?: string };
  getProviderDisplayName(provider: string): string;
  /** True when the model's provider is used through a stored OAuth login (`atomic login`, or pi's auth.json). */
  isUsingOAuth(model: Model): boolean;
  getError(): string | undefined;
}

export interface ContextUsage {
  tokens: number | null;
  contextWindow: number;
  percent: number | null;
}

export interface CompactOptions {
  customInstructions?: string;
  onComplete?: (result: unknown) => void;
  onError?: (error: Error) => void;
}

/** pi's run modes; Atomic adds `acp` (serving an ACP client). There is never a `tui`. */
export type ExtensionMode = "tui" | "rpc" | "json" | "print" | "acp";

/** A model of the session's scope (`--models` / `enabledModels`), as pi lists it. */
export interface ScopedModel {
  model: Model;
  thinkingLevel?: ThinkingLevel;
}

export interface ExtensionContext {
  ui: ExtensionUIContext;
  /** True in RPC mode: dialogs and notifications reach the client through extension_ui_request. */
  hasUI: boolean;
  /** The transport serving this process ("rpc", "print", "json", "acp"). */
  mode: ExtensionMode;
  cwd: string;
  sessionManager: ReadonlySessionManager;
  modelRegistry: ModelRegistryView;
  model: Model | undefined;
  /** The session's thinking level. */
  thinkingLevel: ThinkingLevel;
  /** The models `--models` (or the `enabledModels` setting) scope the session to; empty when unscoped. */
  scopedModels: readonly ScopedModel[];
  /** The running turn's abort signal; undefined when idle. */
  signal: AbortSignal | undefined;
  isIdle(): boolean;
  abort(): void;
  hasPendingMessages(): boolean;
  /** Ends the process cleanly once the agent is idle (exit code 0). */
  shutdown(): void;
  getContextUsage(): ContextUsage | undefined;
  /** Starts compaction without waiting for it (when a compaction plugin provides the `compact` command). */
  compact(options?: CompactOptions): void;
  getSystemPrompt(): string;
  isProjectTrusted(): boolean;
}

export interface ReplacedSessionOptions {
  withSession?: (ctx: ExtensionCommandContext) => Promise<void>;
}

/** A tool's `ctx`: pi 1.x's nested tool calls, run through the agent loop's pipeline (see context.ts). */
export interface ExtensionToolContext extends ExtensionContext {
  readonly tools: readonly { name: string; description: string; parameters: Record<string, unknown> }[];
  executeTool(
    name: string,
    args: unknown,
    options?: { signal?: AbortSignal; onUpdate?: (partial: unknown) => void },
  ): Promise<{
    toolCall: { id: string; name: string; arguments: unknown };
    result: { content: ({ type: "text"; text: string } | { type: "image"; data: string; mimeType: string })[]; details?: unknown; structuredContent?: unknown };
    isError: boolean;
  }>;
}

/** Command handlers get more: these are unsafe inside event handlers (they wait on the agent). */
export interface ExtensionCommandContext extends ExtensionContext {
  /** The inputs of the current base system prompt (see SystemPromptOptions). */
  getSystemPromptOptions(): SystemPromptOptions;
  waitForIdle(): Promise<void>;
  newSession(options?: ReplacedSessionOptions & { parentSession?: string; setup?: unknown }): Promise<{ cancelled: boolean }>;
  fork(entryId: string, options?: ReplacedSessionOptions & { position?: "before" | "at" }): Promise<{ cancelled: boolean }>;
  switchSession(sessionPath: string, options?: ReplacedSessionOptions): Promise<{ cancelled: boolean }>;
  /** Not available in Atomic: rejects with a clear error. */
  navigateTree(targetId: string, options?: unknown): Promise<{ cancelled: boolean }>;
  /** Not available in Atomic (restart the process): rejects with a clear error. */
  reload(): Promise<void>;
}
