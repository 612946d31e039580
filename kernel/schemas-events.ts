/**
 * The zod schemas of the core outward events (the agent loop's): the single source of their
 * `EventMap` entries, of the validation tests run on traffic and of the JSON Schema. Plugins
 * register the schemas of the events they declare with `k.registerEvent`.
 */
import { z } from "zod";
import { AgentMessageSchema, AssistantMessageDeltaSchema, AssistantMessageEventSchema, AssistantMessageSchema, ImageContentSchema, once, TextContentSchema, ToolResultMessageSchema } from "./schemas-messages.js";

/** What a tool produced so far or in the end: `{content, details}` (spec: tool_execution_*). */
export const ToolOutputSchema = once(() =>
  z.object({
    content: z.array(z.discriminatedUnion("type", [TextContentSchema(), ImageContentSchema()])),
    details: z.unknown().optional(),
  }),
);

export const CORE_EVENT_SCHEMAS = {
  agent_start: once(() => z.object({}).meta({ description: "The agent begins processing a prompt." })),
  agent_end: once(() => z.object({ messages: z.array(AgentMessageSchema()).meta({ description: "Every message this run produced." }) })),
  turn_start: once(() => z.object({}).meta({ description: "A turn (one assistant response plus its tool calls) begins." })),
  turn_end: once(() => z.object({ message: AssistantMessageSchema(), toolResults: z.array(ToolResultMessageSchema()) })),
  message_start: once(() => z.object({ message: AgentMessageSchema() })),
  message_update: once(() => z.object({ message: AssistantMessageSchema(), assistantMessageEvent: AssistantMessageEventSchema() })),
  message_end: once(() => z.object({ message: AgentMessageSchema() })),
  tool_execution_start: once(() => z.object({ toolCallId: z.string(), toolName: z.string(), args: z.unknown() })),
  tool_execution_update: once(() =>
    z.object({ toolCallId: z.string(), toolName: z.string(), args: z.unknown(), partialResult: ToolOutputSchema().meta({ description: "The accumulated output so far (not a delta)." }) }),
  ),
  tool_execution_end: once(() => z.object({ toolCallId: z.string(), toolName: z.string(), result: ToolOutputSchema(), isError: z.boolean() })),
  extension_error: once(() =>
    z
      .object({ extensionPath: z.string().meta({ description: "The extension's path, or the plugin's name." }), event: z.string(), error: z.string() })
      .meta({ description: "A plugin's or extension's handler threw; the agent kept running." }),
  ),
} as const;

export type CoreEventName = keyof typeof CORE_EVENT_SCHEMAS;
export type CoreEventPayload<K extends CoreEventName> = z.output<ReturnType<(typeof CORE_EVENT_SCHEMAS)[K]>>;

/**
 * `message_update` as it may cross the wire: in full (the partial message twice), or with event
 * options `messageUpdates: "delta"` without `message` and without `assistantMessageEvent.partial`.
 */
export const MessageUpdateWireSchema = once(() =>
  z
    .object({
      message: AssistantMessageSchema().optional().meta({ description: 'The partial message so far; absent with `messageUpdates: "delta"`.' }),
      assistantMessageEvent: z.union([AssistantMessageEventSchema(), AssistantMessageDeltaSchema()]),
    })
    .meta({ description: "A streaming update of the assistant message." }),
);
