/**
 * The shared vocabulary of the protocol: messages, models, usage and the unified assistant
 * stream events. The wire types derive from their zod schemas (schemas.ts);
 * the kernel knows their shape, never a vendor or a transport.
 */
import type { z } from "zod";
import type * as S from "./schemas.js";

type Out<F extends () => z.ZodType> = z.output<ReturnType<F>>;

export type TextContent = Out<typeof S.TextContentSchema>;
export type ThinkingContent = Out<typeof S.ThinkingContentSchema>;
export type ImageContent = Out<typeof S.ImageContentSchema>;
export type ToolCall = Out<typeof S.ToolCallSchema>;
export type UsageCost = Out<typeof S.UsageCostSchema>;
export type Usage = Out<typeof S.UsageSchema>;
export type StopReason = (typeof S.STOP_REASONS)[number];
export type UserMessage = Out<typeof S.UserMessageSchema>;
export type AssistantMessage = Out<typeof S.AssistantMessageSchema>;
export type ToolResultMessage = Out<typeof S.ToolResultMessageSchema>;
/** Output of a user shell command (the `bash` RPC command), shown to the LLM on the next prompt. */
export type BashExecutionMessage = Out<typeof S.BashExecutionMessageSchema>;
/** A message injected by a plugin or extension (compaction text, extension notes). */
export type CustomMessage = Out<typeof S.CustomMessageSchema>;
/** Everything that can sit in the conversation state. */
export type AgentMessage = Out<typeof S.AgentMessageSchema>;

/** What a provider understands. Other roles are converted before the call. */
export type LlmMessage = UserMessage | AssistantMessage | ToolResultMessage;

export type ThinkingLevel = (typeof S.THINKING_LEVELS)[number];

/** $ per million tokens. */
export type ModelCost = Out<typeof S.ModelCostSchema>;
export type Model = Out<typeof S.ModelSchema>;
/** A higher price that applies to the whole call once its prompt exceeds `aboveInputTokens`. */
export type CostTier = NonNullable<Model["costTiers"]>[number];

/** A tool as the LLM sees it (the kernel's tool registry describes its tools so). */
export type { ToolSpec } from "../../kernel/index.js";
import type { ToolSpec } from "../../kernel/index.js";

export interface LlmContext {
  systemPrompt: string;
  messages: LlmMessage[];
  tools: ToolSpec[];
}

/** The unified streaming events every provider maps its wire format onto. */
export type AssistantMessageEvent = Out<typeof S.AssistantMessageEventSchema>;

export interface StreamOptions {
  signal: AbortSignal;
  /**
   * The level the agent loop records on the answer. A stream that routes the call to another level
   * (a virtual model) states that level as its final message's `thinkingLevel`, which stands.
   */
  thinkingLevel: ThinkingLevel;
  sessionId?: string;
  maxTokens?: number;
  /** 1-based index of the LLM call within the current run (replay cassettes use it). */
  callIndex: number;
  /**
   * A one-off completion (`agent.complete`: compaction's planner, an extension's `complete()`),
   * not a turn of the agent loop, even when it runs during one (a virtual model routes it as pi's
   * `direct` request: no router state).
   */
  direct?: boolean;
  /**
   * The failed answer this call retries (the retry plugin's automatic retry, the retry after an
   * overflow compaction); the context no longer holds it. Set on the retry's first call only (a
   * virtual model routes it as pi's `retry` request, `failed` naming this answer).
   */
  retrying?: AssistantMessage;
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

/** Two calls' usage as one: every count and every cost summed. */
export function sumUsage(a: Usage, b: Usage): Usage {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    totalTokens: a.totalTokens + b.totalTokens,
    cost: {
      input: a.cost.input + b.cost.input,
      output: a.cost.output + b.cost.output,
      cacheRead: a.cost.cacheRead + b.cost.cacheRead,
      cacheWrite: a.cost.cacheWrite + b.cost.cacheWrite,
      total: a.cost.total + b.cost.total,
    },
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
