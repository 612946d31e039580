/**
 * The protocol's shared vocabulary as zod schemas: content blocks, messages, usage, models and
 * the unified assistant stream events. Each schema is the single source of its TypeScript type
 * (types.ts derives them), of the validation tests run on traffic and of the JSON Schema
 * `atomic schema` prints. Built on first use (`once`), so startup builds none of them.
 */
import { z } from "zod";

/** A schema builder that runs once, on first use. */
export function once<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

export const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh", "max"] as const;

export const TextContentSchema = once(() =>
  z.object({
    type: z.literal("text"),
    text: z.string(),
    textSignature: z.string().optional().meta({ description: "Provider data replayed with the text (e.g. a Responses message id and phase)." }),
  }),
);

export const ThinkingContentSchema = once(() =>
  z.object({
    type: z.literal("thinking"),
    thinking: z.string(),
    thinkingSignature: z.string().optional(),
    redacted: z.boolean().optional(),
  }),
);

export const ImageContentSchema = once(() =>
  z.object({
    type: z.literal("image"),
    data: z.string().meta({ description: "Base64-encoded image bytes." }),
    mimeType: z.string(),
  }),
);

export const ToolCallSchema = once(() =>
  z.object({
    type: z.literal("toolCall"),
    id: z.string(),
    name: z.string(),
    arguments: z.record(z.string(), z.unknown()),
    thoughtSignature: z.string().optional(),
  }),
);

export const UsageCostSchema = once(() =>
  z.object({ input: z.number(), output: z.number(), cacheRead: z.number(), cacheWrite: z.number(), total: z.number() }).meta({ description: "Dollars." }),
);

export const UsageSchema = once(() =>
  z.object({
    input: z.number(),
    output: z.number(),
    cacheRead: z.number(),
    cacheWrite: z.number(),
    totalTokens: z.number(),
    cost: UsageCostSchema(),
  }),
);

export const STOP_REASONS = ["stop", "length", "toolUse", "error", "aborted"] as const;

const userContent = () => z.union([z.string(), z.array(z.discriminatedUnion("type", [TextContentSchema(), ImageContentSchema()]))]);

export const UserMessageSchema = once(() => z.object({ role: z.literal("user"), content: userContent(), timestamp: z.number() }));

export const AssistantMessageSchema = once(() =>
  z.object({
    role: z.literal("assistant"),
    content: z.array(z.discriminatedUnion("type", [TextContentSchema(), ThinkingContentSchema(), ToolCallSchema()])),
    api: z.string(),
    provider: z.string(),
    model: z.string(),
    usage: UsageSchema(),
    stopReason: z.enum(STOP_REASONS),
    errorMessage: z.string().optional(),
    timestamp: z.number(),
  }),
);

export const ToolResultMessageSchema = once(() =>
  z.object({
    role: z.literal("toolResult"),
    toolCallId: z.string(),
    toolName: z.string(),
    content: z.array(z.discriminatedUnion("type", [TextContentSchema(), ImageContentSchema()])),
    details: z.unknown().optional(),
    isError: z.boolean(),
    timestamp: z.number(),
  }),
);

export const BashExecutionMessageSchema = once(() =>
  z
    .object({
      role: z.literal("bashExecution"),
      command: z.string(),
      output: z.string(),
      exitCode: z.number().optional().meta({ description: "Absent when cancelled." }),
      cancelled: z.boolean(),
      truncated: z.boolean(),
      fullOutputPath: z.string().nullable(),
      timestamp: z.number(),
      excludeFromContext: z.boolean().optional(),
    })
    .meta({ description: "Output of a user shell command (the `bash` RPC command), shown to the LLM on the next prompt." }),
);

export const CustomMessageSchema = once(() =>
  z
    .object({
      role: z.literal("custom"),
      customType: z.string(),
      content: userContent(),
      display: z.boolean(),
      details: z.unknown().optional(),
      excludeFromContext: z.boolean().optional(),
      timestamp: z.number(),
    })
    .meta({ description: "A message a plugin or extension injected (compaction text, extension notes)." }),
);

export const AgentMessageSchema = once(() =>
  z.discriminatedUnion("role", [UserMessageSchema(), AssistantMessageSchema(), ToolResultMessageSchema(), BashExecutionMessageSchema(), CustomMessageSchema()]),
);

export const ModelCostSchema = once(() =>
  z.object({ input: z.number(), output: z.number(), cacheRead: z.number(), cacheWrite: z.number() }).meta({ description: "Dollars per million tokens." }),
);

export const ModelSchema = once(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    api: z.string(),
    provider: z.string(),
    baseUrl: z.string(),
    reasoning: z.boolean(),
    input: z.array(z.enum(["text", "image"])),
    cost: ModelCostSchema(),
    contextWindow: z.number().meta({ description: "The model's token budget (local budgeting, stats, compaction)." }),
    maxTokens: z.number(),
    headers: z.record(z.string(), z.string()).optional().meta({ description: "Never on the wire (may hold credentials)." }),
    compat: z.record(z.string(), z.unknown()).optional(),
    thinkingLevels: z.array(z.enum(THINKING_LEVELS)).optional().meta({ description: "Levels this model accepts, in cycle order; absent: derived from `reasoning`." }),
    costTiers: z
      .array(z.object({ aboveInputTokens: z.number(), cost: ModelCostSchema() }))
      .optional()
      .meta({ description: "Higher prices above an input size; a call's cost follows its tier." }),
    retiresOn: z.string().optional().meta({ description: "ISO date from which the vendor refuses requests, when announced." }),
  }),
);

/** The stream events, with the partial message (`withPartial`) or without it (delta mode on the wire). */
function streamEvents<P extends z.ZodRawShape>(partial: () => P) {
  const indexed = () => ({ contentIndex: z.number(), ...partial() });
  return z.discriminatedUnion("type", [
    z.object({ type: z.literal("start"), ...partial() }),
    z.object({ type: z.literal("text_start"), ...indexed() }),
    z.object({ type: z.literal("text_delta"), delta: z.string(), ...indexed() }),
    z.object({ type: z.literal("text_end"), content: z.string(), ...indexed() }),
    z.object({ type: z.literal("thinking_start"), ...indexed() }),
    z.object({ type: z.literal("thinking_delta"), delta: z.string(), ...indexed() }),
    z.object({ type: z.literal("thinking_end"), content: z.string(), ...indexed() }),
    z.object({ type: z.literal("toolcall_start"), ...indexed() }),
    z.object({ type: z.literal("toolcall_delta"), delta: z.string(), ...indexed() }),
    z.object({ type: z.literal("toolcall_end"), toolCall: ToolCallSchema(), ...indexed() }),
    z.object({ type: z.literal("done"), reason: z.enum(["stop", "length", "toolUse"]), message: AssistantMessageSchema(), ...partial() }),
    z.object({ type: z.literal("error"), reason: z.enum(["aborted", "error"]), error: AssistantMessageSchema(), ...partial() }),
  ]);
}

export const AssistantMessageEventSchema = once(() => streamEvents(() => ({ partial: AssistantMessageSchema() })));

/** A stream event without `partial`: what `message_update` carries in delta mode. */
export const AssistantMessageDeltaSchema = once(() => streamEvents(() => ({})));

/** The named vocabulary, for the protocol schema's `$defs`. */
export function messageVocabulary(): Record<string, () => z.ZodType> {
  return {
    TextContent: TextContentSchema,
    ThinkingContent: ThinkingContentSchema,
    ImageContent: ImageContentSchema,
    ToolCall: ToolCallSchema,
    Usage: UsageSchema,
    UserMessage: UserMessageSchema,
    AssistantMessage: AssistantMessageSchema,
    ToolResultMessage: ToolResultMessageSchema,
    BashExecutionMessage: BashExecutionMessageSchema,
    CustomMessage: CustomMessageSchema,
    AgentMessage: AgentMessageSchema,
    Model: ModelSchema,
    AssistantMessageEvent: AssistantMessageEventSchema,
  };
}
