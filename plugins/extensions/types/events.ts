/**
 * The events an extension subscribes to with `pi.on(name, handler)`: each event's payload and
 * what its handler may return, in pi's shapes (so pi extensions work unchanged). Each name is
 * the kernel hook of the same name; the adapter table (`event-adapters.ts`) maps one to the other.
 */
import type {
  AgentMessage,
  AssistantMessage,
  AssistantMessageEvent,
  CustomMessage,
  ImageContent,
  Model,
  TextContent,
  ThinkingLevel,
  ToolResultMessage,
} from "../../../lib/llm/index.js";
import type { SystemMessage } from "./llm.js";
import type { CompactionEntry, SessionEntry } from "../../session/api.js";
import type { RegisteredMcpServer } from "../../mcp/api.js";
import type { CompactionParameters, CompactionPreparation, CompactionReason, CompactionResult } from "../../compaction/api.js";

/**
 * pi's system prompt inputs (`BuildSystemPromptOptions`), as far as Atomic knows them. In
 * `before_agent_start` they are mutable and shared by the run's handlers: `selectedTools` sets
 * the active tools, `promptGuidelines` and `sections` are added to the prompt, and
 * `forceSystemPrompt` replaces it. Atomic's prompt plugins build the rest of the prompt
 * themselves, so `contextFiles` and `skills` are not listed (empty).
 */
export interface SystemPromptOptions {
  cwd: string;
  /** Names of the tools the model is offered. */
  selectedTools: string[];
  hiddenTools: string[];
  /** Extension tools' `promptSnippet`s. */
  toolSnippets: Record<string, string>;
  /** Extension tools' `promptGuidelines`. */
  toolGuidelines: Record<string, string[]>;
  /** Extra bullets for the prompt. */
  promptGuidelines: string[];
  appendSystemPrompt: string;
  /** Extra prompt sections, each added wrapped in `<name>` tags. */
  sections: Record<string, string>;
  customPrompt?: string;
  forceSystemPrompt?: string;
  contextFiles: { path: string; content: string }[];
  skills: { name: string; description?: string; [key: string]: unknown }[];
}
export type BuildSystemPromptOptions = SystemPromptOptions;
export type NormalizedBuildSystemPromptOptions = SystemPromptOptions;

/** pi's proposal at a run boundary (`agent_before_settle`, and `turn_end` for reading). */
export interface BoundaryState {
  /** Entries to append (pi's drafts): `custom` and `custom_message` are appended by Atomic. */
  entries: SessionBoundaryDraft[];
  /** Ask for one more provider request. */
  continue: boolean;
  outcome: "completed" | "aborted" | "error";
  context: { contextEntries: SessionEntry[]; contextMessages: AgentMessage[]; llmMessages: unknown[]; pendingMessages: AgentMessage[]; canContinue: boolean };
}

export type SessionBoundaryDraft =
  | { type: "custom"; customType: string; data?: unknown }
  | { type: "custom_message"; customType: string; content: string | (TextContent | ImageContent)[]; display: boolean; details?: unknown }
  | { type: "context_edit"; targetId: string; replacement: unknown }
  | { type: "compaction"; summary: string; firstKeptEntryId: string | null; details?: unknown };

export type UiPromptKind = "select" | "confirm" | "input" | "editor" | "custom";

/** The custom message a handler or `sendMessage` adds: pi's `{customType, content, display, details}`. */
export type CustomMessageInput = Pick<CustomMessage, "customType" | "content" | "display" | "details">;

export interface UserBashResultPayload {
  output: string;
  exitCode?: number;
  cancelled: boolean;
  truncated: boolean;
  fullOutputPath?: string;
}

/** Every event: its payload (`event`) and what a handler may return (`result`). */
export interface ExtensionEvents {
  project_trust: { event: { type: "project_trust"; cwd: string }; result: { trusted: "yes" | "no" | "undecided"; remember?: boolean } };
  resources_discover: {
    event: { type: "resources_discover"; cwd: string; reason: "startup" | "reload" };
    result: { skillPaths?: string[]; promptPaths?: string[]; themePaths?: string[] };
  };
  /** An extension registered or removed an MCP server after startup (pi's `mcp_servers_change`): every registered server. */
  mcp_servers_change: { event: { type: "mcp_servers_change"; servers: RegisteredMcpServer[] }; result: void };
  session_start: { event: { type: "session_start"; reason: "startup" | "reload" | "new" | "resume" | "fork"; previousSessionFile?: string }; result: void };
  session_info_changed: { event: { type: "session_info_changed"; name?: string }; result: void };
  session_before_switch: { event: { type: "session_before_switch"; reason: "new" | "resume"; targetSessionFile?: string }; result: { cancel?: boolean } };
  session_before_fork: {
    event: { type: "session_before_fork"; entryId: string | null; position: "before" | "at" };
    result: { cancel?: boolean; skipConversationRestore?: boolean };
  };
  session_before_compact: {
    event: {
      type: "session_before_compact";
      reason: CompactionReason;
      parameters: CompactionParameters;
      preparation: CompactionPreparation;
      branchEntries: readonly SessionEntry[];
      customInstructions?: string;
      /** An overflow compaction: the failed prompt is retried after it. */
      willRetry: boolean;
      signal: AbortSignal;
    };
    /** `compactedText` (Atomic) or pi's `compaction` (`summary` is the text; `firstKeptEntryId` may move the kept tail) replaces the planner's. */
    result: { cancel?: boolean; compactedText?: string; compaction?: { summary: string; firstKeptEntryId?: string | null; tokensBefore?: number; details?: unknown } };
  };
  session_compact: {
    event: { type: "session_compact"; reason: CompactionReason; result: CompactionResult; compactionEntry: CompactionEntry; fromExtension: boolean; willRetry: boolean };
    result: void;
  };
  session_compact_failed: {
    event: { type: "session_compact_failed"; reason: CompactionReason; errorMessage?: string; aborted: boolean; willRetry: boolean; fromExtension: boolean };
    result: void;
  };
  session_shutdown: { event: { type: "session_shutdown"; reason: "quit" | "reload" | "new" | "resume" | "fork"; targetSessionFile?: string }; result: void };
  /** Accepted for pi compatibility; Atomic has no prompt-cache warming, so it never fires. */
  cache_warming_decision: {
    event: { type: "cache_warming_decision"; warmCost: number; missCost: number; continuationProbability: number; action: "warm" | "stop" };
    result: { action?: "warm" | "stop" };
  };
  /** Accepted for pi compatibility; Atomic has no tree navigation, so they never fire. */
  session_before_tree: { event: { type: "session_before_tree"; preparation: unknown; signal: AbortSignal }; result: { cancel?: boolean } };
  session_tree: { event: { type: "session_tree"; newLeafId: string | null; oldLeafId: string | null }; result: void };
  input: {
    event: { type: "input"; text: string; images?: ImageContent[]; source: string; streamingBehavior?: "steer" | "followUp" };
    result: { action: "continue" } | { action: "transform"; text: string; images?: ImageContent[] } | { action: "handled" };
  };
  before_agent_start: {
    event: {
      type: "before_agent_start";
      /** `custom`: the run was started by `sendMessage(..., { triggerTurn: true })`, which is `message`. */
      messageType: "user" | "custom";
      prompt: string;
      images?: ImageContent[];
      message?: CustomMessage;
      systemPrompt: string;
      systemPromptOptions: SystemPromptOptions;
    };
    result: { message?: CustomMessageInput; systemPrompt?: string };
  };
  context: { event: { type: "context"; messages: AgentMessage[] }; result: { messages?: AgentMessage[] } };
  /** The whole request as pi's transcript: a leading system message (prompt, tools), then the messages. What a handler returns is sent. */
  context_with_system: { event: { type: "context_with_system"; messages: (AgentMessage | SystemMessage)[] }; result: { messages?: (AgentMessage | SystemMessage)[] } };
  agent_start: { event: { type: "agent_start" }; result: void };
  agent_end: { event: { type: "agent_end"; messages: AgentMessage[] }; result: void };
  /** After agent_end when nothing else continues the run (no retry, compaction or queued message); not after an abort. */
  agent_before_settle: { event: { type: "agent_before_settle" } & BoundaryState; result: { entries?: SessionBoundaryDraft[]; continue?: boolean } };
  agent_settled: { event: { type: "agent_settled"; aborted: boolean }; result: void };
  ui_prompt_start: { event: { type: "ui_prompt_start"; reason: "ui_prompt"; kind: UiPromptKind; title?: string }; result: void };
  ui_prompt_end: { event: { type: "ui_prompt_end"; reason: "ui_prompt"; kind: UiPromptKind; title?: string }; result: void };
  turn_start: { event: { type: "turn_start"; turnIndex: number; timestamp: number }; result: void };
  /** `entries`/`continue`/`outcome` are pi's boundary fields for reading; a handler's answer is not applied at turn_end. */
  turn_end: { event: { type: "turn_end"; turnIndex: number; message: AssistantMessage; toolResults: ToolResultMessage[] } & BoundaryState; result: void };
  message_start: { event: { type: "message_start"; message: AgentMessage }; result: void };
  message_update: { event: { type: "message_update"; message: AssistantMessage; assistantMessageEvent: AssistantMessageEvent }; result: void };
  message_end: { event: { type: "message_end"; message: AgentMessage }; result: { message?: AgentMessage } };
  tool_execution_start: { event: { type: "tool_execution_start"; toolCallId: string; toolName: string; args: any }; result: void };
  tool_execution_update: { event: { type: "tool_execution_update"; toolCallId: string; toolName: string; args: any; partialResult: any }; result: void };
  tool_execution_end: { event: { type: "tool_execution_end"; toolCallId: string; toolName: string; result: any; isError: boolean; durationMs?: number }; result: void };
  /** `input` is mutable: change arguments in place (no re-validation). `terminate` is accepted and not applied. */
  tool_call: { event: ToolCallEvent; result: { block?: boolean; reason?: string; terminate?: boolean } };
  tool_result: {
    event: {
      type: "tool_result";
      toolCallId: string;
      toolName: string;
      input: Record<string, unknown>;
      content: (TextContent | ImageContent)[];
      details: unknown;
      isError: boolean;
    };
    result: { content?: (TextContent | ImageContent)[]; details?: unknown; isError?: boolean };
  };
  /** `{block}` refuses the command, `{result}` answers it instead of the shell; pi's `{operations}` is not supported. */
  user_bash: {
    event: { type: "user_bash"; command: string; excludeFromContext: boolean; cwd: string };
    result: { block?: boolean; reason?: string; result?: UserBashResultPayload; operations?: unknown };
  };
  model_select: { event: { type: "model_select"; model: Model; previousModel: Model | undefined; source: "set" | "cycle" | "restore" | "startup" | "fallback" }; result: void };
  thinking_level_select: { event: { type: "thinking_level_select"; level: ThinkingLevel; previousLevel: ThinkingLevel }; result: void };
  /** Mutable `headers`: set a value to add or change a header, `null` to remove one. */
  before_provider_headers: { event: { type: "before_provider_headers"; headers: Record<string, string | null>; model: Model }; result: void };
  /** A returned value (not undefined) replaces the payload. */
  before_provider_request: { event: { type: "before_provider_request"; payload: unknown; model: Model }; result: unknown };
  after_provider_response: { event: { type: "after_provider_response"; status: number; headers: Record<string, string>; model: Model }; result: void };
  /** One server-sent event of a provider's streaming response: `data` is its data parsed as JSON (read-only). */
  provider_stream_event: { event: { type: "provider_stream_event"; provider: string; api: string; model: string; data: unknown }; result: void };
}

export type ExtensionEventName = keyof ExtensionEvents & string;
export type ExtensionEvent<K extends ExtensionEventName = ExtensionEventName> = ExtensionEvents[K]["event"];
export type ExtensionEventResult<K extends ExtensionEventName> = ExtensionEvents[K]["result"];

export interface ToolCallEvent<TInput extends Record<string, unknown> = Record<string, unknown>> {
  type: "tool_call";
  toolCallId: string;
  toolName: string;
  input: TInput;
}

export type ToolResultEvent = ExtensionEvent<"tool_result">;
export type InputEvent = ExtensionEvent<"input">;
export type InputEventResult = ExtensionEventResult<"input">;
export type SessionStartEvent = ExtensionEvent<"session_start">;
export type SessionBeforeSwitchEvent = ExtensionEvent<"session_before_switch">;
export type SessionBeforeForkEvent = ExtensionEvent<"session_before_fork">;
export type SessionBeforeCompactEvent = ExtensionEvent<"session_before_compact">;
export type SessionShutdownEvent = ExtensionEvent<"session_shutdown">;
export type BeforeAgentStartEvent = ExtensionEvent<"before_agent_start">;
export type BeforeAgentStartEventResult = ExtensionEventResult<"before_agent_start">;
export type ContextEvent = ExtensionEvent<"context">;
export type TurnStartEvent = ExtensionEvent<"turn_start">;
export type TurnEndEvent = ExtensionEvent<"turn_end">;
export type MessageEndEvent = ExtensionEvent<"message_end">;
export type ToolCallEventResult = ExtensionEventResult<"tool_call">;
export type ToolResultEventResult = ExtensionEventResult<"tool_result">;
export type UserBashEvent = ExtensionEvent<"user_bash">;
export type UserBashEventResult = ExtensionEventResult<"user_bash">;
export type ModelSelectEvent = ExtensionEvent<"model_select">;
export type ResourcesDiscoverResult = ExtensionEventResult<"resources_discover">;
export type AgentBeforeSettleEvent = ExtensionEvent<"agent_before_settle">;
export type AgentSettledEvent = ExtensionEvent<"agent_settled">;
export type SessionCompactFailedEvent = ExtensionEvent<"session_compact_failed">;
export type SessionInfoChangedEvent = ExtensionEvent<"session_info_changed">;
export type ContextWithSystemEvent = ExtensionEvent<"context_with_system">;
export type ProviderStreamEvent = ExtensionEvent<"provider_stream_event">;
export type ProjectTrustEvent = ExtensionEvent<"project_trust">;
export type ProjectTrustEventResult = ExtensionEventResult<"project_trust">;
