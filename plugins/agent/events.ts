/**
 * The events the agent core declares: its run's (agent_start ... tool_execution_end), the
 * queue's state and the thinking level's. Each schema is the single source of its `EventMap` entry, of the validation
 * tests run on traffic, and of the JSON Schema; hooks that mirror an event take its payload.
 */
import { z } from "zod";
import {
  AgentMessageSchema,
  AssistantMessageDeltaSchema,
  AssistantMessageEventSchema,
  AssistantMessageSchema,
  ImageContentSchema,
  once,
  TextContentSchema,
  THINKING_LEVELS,
  ToolResultMessageSchema,
  UsageSchema,
} from "../../lib/llm/index.js";

/** What a tool produced so far or in the end: `{content, details}`. */
export const ToolOutputSchema = once(() =>
  z.object({
    content: z.array(z.discriminatedUnion("type", [TextContentSchema(), ImageContentSchema()])).describe("What the model is shown."),
    details: z.unknown().optional().describe("Structured data for clients (a diff, truncation facts); never shown to the model."),
    usage: UsageSchema().optional().describe("What the tool's own model calls used (codemode's classifier and image calls)."),
  }),
);

// The records the examples below show: one prompt, one answer.
const AT = 1764600000000;
const USAGE = { input: 1200, output: 12, cacheRead: 0, cacheWrite: 0, totalTokens: 1212, cost: { input: 0.0036, output: 0.00018, cacheRead: 0, cacheWrite: 0, total: 0.00378 } };
const PROMPT = { role: "user", content: "Do the tests pass?", timestamp: AT };
const answer = (text: string, stopReason = "stop") => ({
  role: "assistant",
  content: [{ type: "text", text }],
  api: "anthropic-messages",
  provider: "anthropic",
  model: "claude-sonnet-5-5",
  usage: USAGE,
  stopReason,
  timestamp: AT + 1,
});
const CALL = { toolCallId: "toolu_01", toolName: "bash", args: { command: "npm test" } };
const OUTPUT = { content: [{ type: "text", text: "Tests: 12 passed" }] };

/**
 * `message_update` as it may cross the wire: in full (the partial message twice), or with event
 * options `messageUpdates: "delta"` without `message` and without `assistantMessageEvent.partial`.
 */
export const MessageUpdateWireSchema = once(() =>
  z
    .object({
      message: AssistantMessageSchema().optional().meta({ description: 'The partial message so far; absent with `messageUpdates: "delta"`.' }),
      usage: MessageUsageSchema(),
      assistantMessageEvent: z.union([AssistantMessageEventSchema(), AssistantMessageDeltaSchema()]).describe('What changed (without `partial` with `messageUpdates: "delta"`).'),
    })
    .meta({
      description: "A streaming update of the assistant message.",
      examples: [
        {
          message: answer("Yes, all"),
          usage: answer("Yes, all").usage,
          assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: " all", partial: answer("Yes, all") },
        },
      ],
    }),
);

/** pi 1.x's `message_update.usage`: the partial message's usage (the same object as `message.usage`). */
const MessageUsageSchema = () =>
  UsageSchema().meta({ description: "The latest cumulative usage the provider reported for this response (zero until it reports any; some providers report only at the end)." });

/** `tool_execution_end.durationMs` (pi 1.x): absent when the tool did not run (invalid arguments, blocked, aborted first). */
/** pi 1.x: the id of the tool that made this call (a codemode script's tool calls), absent for the model's own calls. */
const ParentSchema = () => z.string().optional().meta({ description: "The id of the tool call that made this one (a codemode script's calls); absent for the model's own calls." });

const DurationSchema = () =>
  z.number().int().nonnegative().optional().meta({ description: "How long the tool's execute() took, in whole milliseconds (monotonic clock); absent when the tool did not run." });

export const ThinkingLevelChangedSchema = () =>
  z.object({ level: z.enum(THINKING_LEVELS).meta({ description: "The level now in force." }) }).meta({
    description: "The thinking level changed (set_thinking_level, cycle_thinking_level, a model switch that clamped it, an extension); not when a session is loaded.",
    examples: [{ level: "high" }],
  });

export const QueueUpdateSchema = () =>
  z
    .object({
      steering: z.array(z.string()).meta({ description: "Texts waiting for the next delivery point in a run, in order." }),
      followUp: z.array(z.string()).meta({ description: "Texts waiting for the agent to stop, in order." }),
    })
    .meta({ description: "The pending steering or follow-up queue changed.", examples: [{ steering: ["Use the fixtures folder"], followUp: [] }] });

/** The payloads the agent emits and its hooks carry (`message_update` in full; the wire form is registered). */
export const RUN_EVENT_SCHEMAS = {
  agent_start: once(() => z.object({}).meta({ description: "The agent begins processing a prompt.", examples: [{}] })),
  agent_end: once(() =>
    z.object({ messages: z.array(AgentMessageSchema()).meta({ description: "Every message this run produced." }) }).meta({
      description: "The run ended (answered, failed or aborted); retries and queued messages may start another.",
      examples: [{ messages: [PROMPT, answer("Yes, all 12 pass.")] }],
    }),
  ),
  turn_start: once(() => z.object({}).meta({ description: "A turn (one assistant response plus its tool calls) begins.", examples: [{}] })),
  turn_end: once(() =>
    z
      .object({
        message: AssistantMessageSchema().describe("The turn's reply."),
        toolResults: z.array(ToolResultMessageSchema()).describe("The results of its tool calls, in call order."),
      })
      .meta({ description: "A turn ended: its reply and the results of the tools it called.", examples: [{ message: answer("Yes, all 12 pass."), toolResults: [] }] }),
  ),
  message_start: once(() =>
    z
      .object({ message: AgentMessageSchema().describe("The message as it starts (an assistant reply is empty at first).") })
      .meta({ description: "A message begins: the prompt, a reply, a tool result.", examples: [{ message: PROMPT }] }),
  ),
  message_update: once(() => z.object({ message: AssistantMessageSchema(), usage: MessageUsageSchema(), assistantMessageEvent: AssistantMessageEventSchema() })),
  message_end: once(() =>
    z
      .object({ message: AgentMessageSchema().describe("The complete message.") })
      .meta({ description: "A message is complete.", examples: [{ message: answer("Yes, all 12 pass.") }] }),
  ),
  tool_execution_start: once(() =>
    z
      .object({
        toolCallId: z.string().describe("The tool call's id."),
        toolName: z.string().describe("The tool."),
        args: z.unknown().describe("Its arguments, as the model wrote them."),
        parentToolCallId: ParentSchema(),
      })
      .meta({ description: "A tool starts running.", examples: [CALL] }),
  ),
  tool_execution_update: once(() =>
    z
      .object({
        toolCallId: z.string().describe("The tool call's id."),
        toolName: z.string().describe("The tool."),
        args: z.unknown().describe("Its arguments."),
        partialResult: ToolOutputSchema().meta({ description: "The accumulated output so far (not a delta)." }),
        parentToolCallId: ParentSchema(),
      })
      .meta({
        description: "A running tool reports progress (bash: its output so far).",
        examples: [{ ...CALL, partialResult: { content: [{ type: "text", text: "Tests: 7 passed" }] } }],
      }),
  ),
  tool_execution_end: once(() =>
    z
      .object({
        toolCallId: z.string().describe("The tool call's id."),
        toolName: z.string().describe("The tool."),
        result: ToolOutputSchema().describe("What it produced."),
        isError: z.boolean().describe("It failed (the content says why)."),
        durationMs: DurationSchema(),
        parentToolCallId: ParentSchema(),
      })
      .meta({ description: "A tool finished.", examples: [{ toolCallId: CALL.toolCallId, toolName: CALL.toolName, result: OUTPUT, isError: false }] }),
  ),
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
