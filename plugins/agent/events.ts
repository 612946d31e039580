/**
 * The events the agent core declares: its run's (agent_start ... tool_execution_end), the
 * queue's state and the thinking level's. Each schema is the single source of its `EventMap` entry, of the validation
 * tests run on traffic, and of the JSON Schema; hooks that mirror an event take its payload.
 */
import { z } from "zod";
import { AgentMessageSchema, AssistantMessageDeltaSchema, AssistantMessageEventSchema, AssistantMessageSchema, ImageContentSchema, once, TextContentSchema, THINKING_LEVELS, ToolResultMessageSchema, UsageSchema } from "../../lib/llm/index.js";

/** What a tool produced so far or in the end: `{content, details}`. */
export const ToolOutputSchema = once(() =>
  z.object({
    content: z.array(z.discriminatedUnion("type", [TextContentSchema(), ImageContentSchema()])),
    details: z.unknown().optional(),
  }),
);

/**
 * `message_update` as it may cross the wire: in full (the partial message twice), or with event
 * options `messageUpdates: "delta"` without `message` and without `assistantMessageEvent.partial`.
 */
export const MessageUpdateWireSchema = once(() =>
  z
    .object({
      message: AssistantMessageSchema().optional().meta({ description: 'The partial message so far; absent with `messageUpdates: "delta"`.' }),
      usage: MessageUsageSchema(),
      assistantMessageEvent: z.union([AssistantMessageEventSchema(), AssistantMessageDeltaSchema()]),
    })
    .meta({ description: "A streaming update of the assistant message." }),
);

/** pi 1.x's `message_update.usage`: the partial message's usage (the same object as `message.usage`). */
const MessageUsageSchema = () =>
  UsageSchema().meta({ description: "The latest cumulative usage the provider reported for this response (zero until it reports any; some providers report only at the end)." });

/** `tool_execution_end.durationMs` (pi 1.x): absent when the tool did not run (invalid arguments, blocked, aborted first). */
const DurationSchema = () =>
  z.number().int().nonnegative().optional().meta({ description: "How long the tool's execute() took, in whole milliseconds (monotonic clock); absent when the tool did not run." });

export const ThinkingLevelChangedSchema = () =>
  z
    .object({ level: z.enum(THINKING_LEVELS).meta({ description: "The level now in force." }) })
    .meta({ description: "The thinking level changed (set_thinking_level, cycle_thinking_level, a model switch that clamped it, an extension); not when a session is loaded." });

export const QueueUpdateSchema = () =>
  z
    .object({
      steering: z.array(z.string()).meta({ description: "Texts waiting for the next delivery point in a run, in order." }),
      followUp: z.array(z.string()).meta({ description: "Texts waiting for the agent to stop, in order." }),
    })
    .meta({ description: "The pending steering or follow-up queue changed." });

/** The payloads the agent emits and its hooks carry (`message_update` in full; the wire form is registered). */
export const RUN_EVENT_SCHEMAS = {
  agent_start: once(() => z.object({}).meta({ description: "The agent begins processing a prompt." })),
  agent_end: once(() => z.object({ messages: z.array(AgentMessageSchema()).meta({ description: "Every message this run produced." }) })),
  turn_start: once(() => z.object({}).meta({ description: "A turn (one assistant response plus its tool calls) begins." })),
  turn_end: once(() => z.object({ message: AssistantMessageSchema(), toolResults: z.array(ToolResultMessageSchema()) })),
  message_start: once(() => z.object({ message: AgentMessageSchema() })),
  message_update: once(() => z.object({ message: AssistantMessageSchema(), usage: MessageUsageSchema(), assistantMessageEvent: AssistantMessageEventSchema() })),
  message_end: once(() => z.object({ message: AgentMessageSchema() })),
  tool_execution_start: once(() => z.object({ toolCallId: z.string(), toolName: z.string(), args: z.unknown() })),
  tool_execution_update: once(() =>
    z.object({ toolCallId: z.string(), toolName: z.string(), args: z.unknown(), partialResult: ToolOutputSchema().meta({ description: "The accumulated output so far (not a delta)." }) }),
  ),
  tool_execution_end: once(() => z.object({ toolCallId: z.string(), toolName: z.string(), result: ToolOutputSchema(), isError: z.boolean(), durationMs: DurationSchema() })),
} as const;

type RunEventPayload<K extends keyof typeof RUN_EVENT_SCHEMAS> = z.output<ReturnType<(typeof RUN_EVENT_SCHEMAS)[K]>>;

declare module "../../kernel/events.js" {
  interface EventMap {
    /** No payload. */
    agent_start: {};
    agent_end: RunEventPayload<"agent_end">;
    /** No payload (hooks also get `turnIndex`). */
    turn_start: {};
    turn_end: RunEventPayload<"turn_end">;
    message_start: RunEventPayload<"message_start">;
    message_update: RunEventPayload<"message_update">;
    message_end: RunEventPayload<"message_end">;
    tool_execution_start: RunEventPayload<"tool_execution_start">;
    tool_execution_update: RunEventPayload<"tool_execution_update">;
    tool_execution_end: RunEventPayload<"tool_execution_end">;
    queue_update: z.output<ReturnType<typeof QueueUpdateSchema>>;
    thinking_level_changed: z.output<ReturnType<typeof ThinkingLevelChangedSchema>>;
  }
}
