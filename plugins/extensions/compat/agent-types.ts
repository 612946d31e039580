/** pi-agent-core's types for its `Agent` (agent.ts): options, state, tools, events. */
import type { AssistantMessage, AssistantMessageEvent, ImageContent, LlmMessage, Model, TextContent, ThinkingLevel, ToolResultMessage } from "../../../lib/llm/index.js";
import type { Context, SimpleStreamOptions } from "../types/llm.js";

/** Any transcript message: an LLM message, a `system` one, or an extension's own kind. */
export type AgentMessage = LlmMessage | { role: string; [key: string]: unknown };
export type StreamFn = (model: Model, context: Context, options?: SimpleStreamOptions) => AsyncIterable<AssistantMessageEvent> | Promise<AsyncIterable<AssistantMessageEvent>>;
export type ToolExecutionMode = "sequential" | "parallel";
export type QueueMode = "all" | "one-at-a-time";
export type AgentToolCall = { type: "toolCall"; id: string; name: string; arguments: Record<string, unknown> };

export interface AgentToolResult<T = unknown> {
  content: (TextContent | ImageContent)[];
  details: T;
  isError?: boolean;
  terminate?: boolean;
  structuredContent?: unknown;
}

export type AgentToolUpdateCallback<T = unknown> = (partialResult: AgentToolResult<T>) => void;

export interface AgentTool<TParams = any, TDetails = any> {
  name: string;
  label?: string;
  description: string;
  parameters: object;
  prepareArguments?: (args: unknown) => TParams;
  executionMode?: ToolExecutionMode;
  execute: (toolCallId: string, params: TParams, signal?: AbortSignal, onUpdate?: AgentToolUpdateCallback<TDetails>) => Promise<AgentToolResult<TDetails>>;
}

export interface AgentContext {
  messages: AgentMessage[];
  tools?: AgentTool[];
}

export interface BeforeToolCallContext {
  assistantMessage: AssistantMessage;
  toolCall: AgentToolCall;
  args: unknown;
  context: AgentContext;
}

export interface BeforeToolCallResult {
  block?: boolean;
  reason?: string;
  terminate?: boolean;
}

export interface AfterToolCallContext extends BeforeToolCallContext {
  result: AgentToolResult;
  isError: boolean;
}

export interface AfterToolCallResult {
  content?: (TextContent | ImageContent)[];
  details?: unknown;
  isError?: boolean;
  terminate?: boolean;
}

export interface AgentTurnContext {
  message: AssistantMessage;
  toolResults: ToolResultMessage[];
  context: AgentContext;
  newMessages: AgentMessage[];
}

export type FinishTurn = (
  turn: AgentTurnContext,
  signal?: AbortSignal,
) => { action: "continue" | "end" } | undefined | void | Promise<{ action: "continue" | "end" } | undefined | void>;

export interface AgentState {
  readonly systemPrompt: string;
  model: Model;
  thinkingLevel: ThinkingLevel;
  tools: AgentTool[];
  messages: AgentMessage[];
  readonly isStreaming: boolean;
  readonly streamingMessage?: AgentMessage;
  readonly pendingToolCalls: ReadonlySet<string>;
  readonly errorMessage?: string;
}

export interface AgentOptions {
  initialState?: Partial<Pick<AgentState, "systemPrompt" | "model" | "thinkingLevel" | "tools" | "messages">>;
  convertToLlm?: (messages: AgentMessage[]) => LlmMessage[] | Promise<LlmMessage[]>;
  transformContext?: (messages: AgentMessage[], signal?: AbortSignal) => Promise<AgentMessage[]>;
  streamFn?: StreamFn;
  /** pi 1.x's older name of `streamFn`. */
  streamFunction?: StreamFn;
  getApiKey?: (provider: string) => Promise<string | undefined> | string | undefined;
  beforeToolCall?: (context: BeforeToolCallContext, signal?: AbortSignal) => Promise<BeforeToolCallResult | undefined>;
  afterToolCall?: (context: AfterToolCallContext, signal?: AbortSignal) => Promise<AfterToolCallResult | undefined>;
  finishTurn?: FinishTurn;
  steeringMode?: QueueMode;
  followUpMode?: QueueMode;
  sessionId?: string;
  toolExecution?: ToolExecutionMode;
}

export type AgentEvent =
  | { type: "agent_start" }
  | { type: "agent_end"; messages: AgentMessage[] }
  | { type: "turn_start" }
  | { type: "turn_end"; message: AgentMessage; toolResults: ToolResultMessage[] }
  | { type: "message_start"; message: AgentMessage }
  | { type: "message_update"; message: AgentMessage; assistantMessageEvent: AssistantMessageEvent }
  | { type: "message_end"; message: AgentMessage }
  | { type: "tool_execution_start"; toolCallId: string; toolName: string; args: unknown }
  | { type: "tool_execution_update"; toolCallId: string; toolName: string; args: unknown; partialResult: unknown }
  | { type: "tool_execution_end"; toolCallId: string; toolName: string; result: unknown; isError: boolean; durationMs?: number };
