/**
 * The shared vocabulary of the protocol: messages, models, usage and the unified assistant
 * stream events. Pure types: the kernel knows their shape, never a vendor or a transport.
 */

export interface TextContent {
  type: "text";
  text: string;
  textSignature?: string;
}

export interface ThinkingContent {
  type: "thinking";
  thinking: string;
  thinkingSignature?: string;
  redacted?: boolean;
}

export interface ImageContent {
  type: "image";
  /** base64 */
  data: string;
  mimeType: string;
}

export interface ToolCall {
  type: "toolCall";
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  thoughtSignature?: string;
}

export interface UsageCost {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  total: number;
}

export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  cost: UsageCost;
}

export type StopReason = "stop" | "length" | "toolUse" | "error" | "aborted";

export interface UserMessage {
  role: "user";
  content: string | (TextContent | ImageContent)[];
  timestamp: number;
}

export interface AssistantMessage {
  role: "assistant";
  content: (TextContent | ThinkingContent | ToolCall)[];
  api: string;
  provider: string;
  model: string;
  usage: Usage;
  stopReason: StopReason;
  errorMessage?: string;
  timestamp: number;
}

export interface ToolResultMessage {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: (TextContent | ImageContent)[];
  details?: unknown;
  isError: boolean;
  timestamp: number;
}

/** Output of a user shell command (the `bash` RPC command), shown to the LLM on the next prompt. */
export interface BashExecutionMessage {
  role: "bashExecution";
  command: string;
  output: string;
  exitCode?: number;
  cancelled: boolean;
  truncated: boolean;
  fullOutputPath: string | null;
  timestamp: number;
  excludeFromContext?: boolean;
}

/** A message injected by a plugin or extension (compaction summaries, extension notes). */
export interface CustomMessage {
  role: "custom";
  customType: string;
  content: string | (TextContent | ImageContent)[];
  display: boolean;
  details?: unknown;
  excludeFromContext?: boolean;
  timestamp: number;
}

/** Everything that can sit in the conversation state. */
export type AgentMessage =
  | UserMessage
  | AssistantMessage
  | ToolResultMessage
  | BashExecutionMessage
  | CustomMessage;

/** What a provider understands. Other roles are converted before the call. */
export type LlmMessage = UserMessage | AssistantMessage | ToolResultMessage;

export const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh", "max"] as const;
export type ThinkingLevel = (typeof THINKING_LEVELS)[number];

export interface ModelCost {
  /** $ per million tokens */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** A higher price that applies to the whole call once its prompt exceeds `aboveInputTokens`. */
export interface CostTier {
  aboveInputTokens: number;
  cost: ModelCost;
}

export interface Model {
  id: string;
  name: string;
  api: string;
  provider: string;
  baseUrl: string;
  reasoning: boolean;
  input: ("text" | "image")[];
  cost: ModelCost;
  contextWindow: number;
  maxTokens: number;
  headers?: Record<string, string>;
  compat?: Record<string, unknown>;
  /** Levels this model accepts, in cycle order; absent = derived from `reasoning`. */
  thinkingLevels?: ThinkingLevel[];
  /** Higher prices above an input size (e.g. GPT-5.4 above 272K tokens); cost follows the tier. */
  costTiers?: CostTier[];
  /** ISO date (YYYY-MM-DD) from which the vendor refuses requests, when one is announced. */
  retiresOn?: string;
}

/** A tool as the LLM sees it. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface LlmContext {
  systemPrompt: string;
  messages: LlmMessage[];
  tools: ToolSpec[];
}

/** The unified streaming events every provider maps its wire format onto. */
export type AssistantMessageEvent =
  | { type: "start"; partial: AssistantMessage }
  | { type: "text_start"; contentIndex: number; partial: AssistantMessage }
  | { type: "text_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
  | { type: "text_end"; contentIndex: number; content: string; partial: AssistantMessage }
  | { type: "thinking_start"; contentIndex: number; partial: AssistantMessage }
  | { type: "thinking_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
  | { type: "thinking_end"; contentIndex: number; content: string; partial: AssistantMessage }
  | { type: "toolcall_start"; contentIndex: number; partial: AssistantMessage }
  | { type: "toolcall_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
  | { type: "toolcall_end"; contentIndex: number; toolCall: ToolCall; partial: AssistantMessage }
  | { type: "done"; reason: "stop" | "length" | "toolUse"; message: AssistantMessage; partial: AssistantMessage }
  | { type: "error"; reason: "aborted" | "error"; error: AssistantMessage; partial: AssistantMessage };

/** A provider's answer to one request: its events, ending with exactly one `done` or `error`. */
export type AssistantStream = AsyncIterable<AssistantMessageEvent>;

export interface StreamOptions {
  signal: AbortSignal;
  thinkingLevel: ThinkingLevel;
  sessionId?: string;
  maxTokens?: number;
  /** 1-based index of the LLM call within the current run (replay cassettes use it). */
  callIndex: number;
}

export interface StreamRequest {
  model: Model;
  context: LlmContext;
  options: StreamOptions;
}

export function emptyUsage(): Usage {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

/**
 * A Model as it crosses the protocol: without `headers`, which come from models.json and may
 * hold credentials (a literal token, or the `!command` that prints one).
 */
export function publicModel(model: Model): Omit<Model, "headers"> {
  if (!("headers" in model)) return model;
  const { headers: _headers, ...rest } = model;
  return rest;
}
