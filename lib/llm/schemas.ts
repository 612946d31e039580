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
  z
    .object({
      type: z.literal("text"),
      text: z.string().describe("The text."),
      textSignature: z.string().optional().meta({ description: "Provider data replayed with the text (e.g. a Responses message id and phase)." }),
    })
    .describe("A block of text."),
);

export const ThinkingContentSchema = once(() =>
  z
    .object({
      type: z.literal("thinking"),
      thinking: z.string().describe("The model's reasoning as it showed it (a summary for some providers)."),
      thinkingSignature: z.string().optional().describe("Provider data that lets the reasoning be sent back on the next turn."),
      redacted: z.boolean().optional().describe("The provider withheld the reasoning; `thinkingSignature` holds it encrypted."),
    })
    .describe("A block of the model's reasoning."),
);

export const ImageContentSchema = once(() =>
  z
    .object({
      type: z.literal("image"),
      data: z.string().meta({ description: "Base64-encoded image bytes." }),
      mimeType: z.string().describe('The image type, e.g. "image/png".'),
    })
    .describe("An image."),
);

export const ToolCallSchema = once(() =>
  z
    .object({
      type: z.literal("toolCall"),
      id: z.string().describe("The call's id; its tool result carries it as `toolCallId`."),
      name: z.string().describe("The tool called."),
      arguments: z.record(z.string(), z.unknown()).describe("The arguments, as the model wrote them (parsed JSON)."),
      thoughtSignature: z.string().optional().describe("Provider data replayed with the call (Gemini's thought signature)."),
    })
    .describe("A tool call the model made."),
);

export const UsageCostSchema = once(() =>
  z
    .object({
      input: z.number().describe("For input tokens."),
      output: z.number().describe("For output tokens."),
      cacheRead: z.number().describe("For tokens read from the provider's prompt cache."),
      cacheWrite: z.number().describe("For tokens written to the provider's prompt cache."),
      total: z.number().describe("The sum; or what the provider billed, when it reports that (OpenRouter)."),
    })
    .meta({ description: "Dollars." }),
);

export const UsageSchema = once(() =>
  z
    .object({
      input: z.number().describe("Input tokens billed (not counting cache reads)."),
      output: z.number().describe("Output tokens, reasoning included."),
      cacheRead: z.number().describe("Input tokens read from the provider's prompt cache."),
      cacheWrite: z.number().describe("Input tokens written to the provider's prompt cache."),
      totalTokens: z.number().describe("All of the above."),
      cost: UsageCostSchema().describe("What the call cost, in dollars, from the model's prices."),
    })
    .describe("Tokens and cost of one model call."),
);

export const STOP_REASONS = ["stop", "length", "toolUse", "error", "aborted"] as const;

const userContent = () => z.union([z.string(), z.array(z.discriminatedUnion("type", [TextContentSchema(), ImageContentSchema()]))]);

export const UserMessageSchema = once(() =>
  z
    .object({
      role: z.literal("user"),
      content: userContent().describe("Text, or text and image blocks."),
      timestamp: z.number().describe("When it was sent (ms since the epoch)."),
    })
    .describe("A prompt (or a steering or follow-up message)."),
);

export const AssistantMessageSchema = once(() =>
  z
    .object({
      role: z.literal("assistant"),
      content: z
        .array(z.discriminatedUnion("type", [TextContentSchema(), ThinkingContentSchema(), ToolCallSchema()]))
        .describe("Text, reasoning and tool calls, in the order the model produced them."),
      api: z.string().describe('The wire API that produced it, e.g. "anthropic-messages".'),
      provider: z.string().describe("The provider of the model."),
      model: z.string().describe("The model id."),
      thinkingLevel: z
        .enum(THINKING_LEVELS)
        .optional()
        .describe(
          "The thinking level the agent loop requested of `model` for this reply (routed by a virtual model: the level its router chose, clamped to that model); absent outside the agent loop, when no provider was called (no model or provider, aborted before the call), and in older sessions.",
        ),
      usage: UsageSchema().describe("Tokens and cost of this call."),
      stopReason: z.enum(STOP_REASONS).describe("Why it ended: finished, hit the output limit, called tools, failed, or was aborted."),
      errorMessage: z.string().optional().describe("What failed, with `stopReason` error or aborted."),
      timestamp: z.number().describe("When it started (ms since the epoch)."),
    })
    .describe("One model reply."),
);

export const ToolResultMessageSchema = once(() =>
  z
    .object({
      role: z.literal("toolResult"),
      toolCallId: z.string().describe("The id of the tool call it answers."),
      toolName: z.string().describe("The tool that ran."),
      content: z.array(z.discriminatedUnion("type", [TextContentSchema(), ImageContentSchema()])).describe("What the model is shown."),
      details: z.unknown().optional().describe("Structured data for clients (a diff, truncation facts); never shown to the model."),
      usage: UsageSchema().optional().describe("What the tool's own model calls used (codemode's classifier and image calls); counted in the session's totals, not the context."),
      isError: z.boolean().describe("The tool failed (the content says why)."),
      timestamp: z.number().describe("When it finished (ms since the epoch)."),
    })
    .describe("The result of one tool call."),
);

export const BashExecutionMessageSchema = once(() =>
  z
    .object({
      role: z.literal("bashExecution"),
      command: z.string().describe("The command line."),
      output: z.string().describe("Its output (stdout and stderr, the tail when truncated)."),
      exitCode: z.number().optional().meta({ description: "Absent when cancelled." }),
      cancelled: z.boolean().describe("It was cancelled before it exited."),
      truncated: z.boolean().describe("`output` is the tail of a longer output."),
      fullOutputPath: z.string().nullable().describe("A file with the whole output, when truncated."),
      timestamp: z.number().describe("When it ran (ms since the epoch)."),
      excludeFromContext: z.boolean().optional().describe("Kept in the session but not shown to the model."),
    })
    .meta({ description: "Output of a user shell command (the `bash` RPC command), shown to the LLM on the next prompt." }),
);

export const CustomMessageSchema = once(() =>
  z
    .object({
      role: z.literal("custom"),
      customType: z.string().describe("What kind of message, named by whoever injected it."),
      content: userContent().describe("What the model is shown."),
      display: z.boolean().describe("Whether a client should show it to the user."),
      details: z.unknown().optional().describe("Structured data for clients; never shown to the model."),
      excludeFromContext: z.boolean().optional().describe("Kept in the session but not shown to the model."),
      timestamp: z.number().describe("When it was injected (ms since the epoch)."),
    })
    .meta({ description: "A message a plugin or extension injected (compaction text, extension notes)." }),
);

export const AgentMessageSchema = once(() =>
  z
    .discriminatedUnion("role", [UserMessageSchema(), AssistantMessageSchema(), ToolResultMessageSchema(), BashExecutionMessageSchema(), CustomMessageSchema()])
    .describe("A message of the conversation, by `role`."),
);

export const ModelCostSchema = once(() =>
  z
    .object({
      input: z.number().describe("Per million input tokens."),
      output: z.number().describe("Per million output tokens."),
      cacheRead: z.number().describe("Per million tokens read from the prompt cache."),
      cacheWrite: z.number().describe("Per million tokens written to the prompt cache."),
    })
    .meta({ description: "Dollars per million tokens." }),
);

export const ModelSchema = once(() =>
  z
    .object({
      id: z.string().describe("The model id, as the provider names it."),
      name: z.string().describe("A display name."),
      api: z.string().describe('The wire API Atomic speaks to it, e.g. "openai-responses".'),
      provider: z.string().describe("The provider it belongs to (`set_model` takes both)."),
      baseUrl: z.string().describe("Where requests go (secrets in it shown as ***)."),
      reasoning: z.boolean().describe("It can think (thinking levels apply)."),
      input: z.array(z.enum(["text", "image"])).describe("What a prompt may contain."),
      cost: ModelCostSchema().describe("Its prices."),
      contextWindow: z.number().meta({ description: "The model's token budget (local budgeting, stats, compaction)." }),
      maxTokens: z.number().describe("The most output tokens one call may produce."),
      headers: z.record(z.string(), z.string()).optional().meta({ description: "Never on the wire (may hold credentials)." }),
      compat: z.record(z.string(), z.unknown()).optional().describe("Quirks of a compatible server (models.json `compat`) the adapter honours."),
      thinkingLevels: z.array(z.enum(THINKING_LEVELS)).optional().meta({ description: "Levels this model accepts, in cycle order; absent: derived from `reasoning`." }),
      costTiers: z
        .array(
          z.object({
            aboveInputTokens: z.number().describe("The tier applies to calls with more input tokens than this."),
            cost: ModelCostSchema().describe("The tier's prices."),
          }),
        )
        .optional()
        .meta({ description: "Higher prices above an input size; a call's cost follows its tier." }),
      retiresOn: z.string().optional().meta({ description: "ISO date from which the vendor refuses requests, when announced." }),
    })
    .describe("A model Atomic can call."),
);

/** The stream events, with the partial message (`withPartial`) or without it (delta mode on the wire). */
function streamEvents<P extends z.ZodRawShape>(partial: () => P) {
  const indexed = () => ({ contentIndex: z.number().describe("The block of the message's `content` this event is about."), ...partial() });
  const delta = () => z.string().describe("The text added to the block.");
  const content = () => z.string().describe("The block's whole text.");
  return z
    .discriminatedUnion("type", [
      z.object({ type: z.literal("start"), ...partial() }).describe("The reply starts."),
      z.object({ type: z.literal("text_start"), ...indexed() }).describe("A text block starts."),
      z.object({ type: z.literal("text_delta"), delta: delta(), ...indexed() }).describe("More text."),
      z.object({ type: z.literal("text_end"), content: content(), ...indexed() }).describe("A text block is complete."),
      z.object({ type: z.literal("thinking_start"), ...indexed() }).describe("A reasoning block starts."),
      z.object({ type: z.literal("thinking_delta"), delta: delta(), ...indexed() }).describe("More reasoning."),
      z.object({ type: z.literal("thinking_end"), content: content(), ...indexed() }).describe("A reasoning block is complete."),
      z
        .object({
          type: z.literal("toolcall_start"),
          // In the delta form (no `partial` to find the call in), as pi 1.6 writes it: which call starts.
          id: z.string().optional().describe('The call\'s id (`messageUpdates: "delta"` only).'),
          toolName: z.string().optional().describe('The tool called (`messageUpdates: "delta"` only).'),
          ...indexed(),
        })
        .describe("A tool call starts."),
      z.object({ type: z.literal("toolcall_delta"), delta: z.string().describe("More of the call's JSON arguments."), ...indexed() }).describe("More of a tool call."),
      z.object({ type: z.literal("toolcall_end"), toolCall: ToolCallSchema().describe("The complete call."), ...indexed() }).describe("A tool call is complete."),
      z
        .object({
          type: z.literal("done"),
          reason: z.enum(["stop", "length", "toolUse"]).describe("Why it ended."),
          message: AssistantMessageSchema().describe("The complete reply."),
          ...partial(),
        })
        .describe("The reply is complete."),
      z
        .object({
          type: z.literal("error"),
          reason: z.enum(["aborted", "error"]).describe("Aborted, or failed."),
          error: AssistantMessageSchema().describe("The reply as far as it got, with `errorMessage`."),
          ...partial(),
        })
        .describe("The reply failed or was aborted."),
    ])
    .describe("One step of a streamed model reply, by `type`.");
}

export const AssistantMessageEventSchema = once(() => streamEvents(() => ({ partial: AssistantMessageSchema().describe("The reply so far.") })));

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
