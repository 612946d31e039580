/** The agent core's RPC commands: prompting, queues, state. One zod schema per command. */
import { z } from "zod";
import { AgentMessageSchema, ImageContentSchema, once } from "../../lib/llm/index.js";
import { defineCommand, type CommandDefinition, NO_DATA } from "../../kernel/index.js";
import type { Agent } from "./agent.js";
import type { PromptDisposition, QueuedInputDisposition } from "./api.js";
import { assistantText } from "./convert.js";

/** A format's own message, but zod's for a value that is no string at all (`expected string`). */
const unlessNotString = (message: string) => (issue: { code?: string }) => (issue.code === "invalid_type" ? undefined : message);

/**
 * An image a client sends: checked here, where it comes in, not in the message schema that also
 * reads stored sessions. Stored unchecked, a text file or broken base64 would be refused by the
 * provider on every later request of the session.
 */
export const imageSchema = once(() =>
  ImageContentSchema().extend({
    // A pattern, not `z.base64()`: its JSON Schema `format: "base64"` is no standard format, and
    // validators built from `atomic schema` (ajv's strict mode) refuse or warn about it.
    data: z
      .string()
      .regex(z.regexes.base64, { error: unlessNotString("base64-encoded image bytes (no data: prefix, no line breaks)") })
      .meta({ contentEncoding: "base64" })
      .describe("Base64-encoded image bytes."),
    mimeType: z
      .string()
      .regex(/^image\/[\w.+-]+$/, { error: 'an image type, such as "image/png"' })
      .describe('The image type, e.g. "image/png".'),
  }),
);

const queueModeSchema = () => z.enum(["all", "one-at-a-time"]).describe('"all": every queued message at the next delivery point; "one-at-a-time": one per delivery point.');
const messageSchema = () => z.string().describe("The text (a `/name` runs a slash command, an extension's command or a prompt template).");
const imagesSchema = () => z.array(imageSchema()).optional().describe("Images sent with the text.");

/** pi 1.x's `data.disposition`: what became of the submitted text (a field added to the protocol's response). */
const PromptDispositionSchema = () =>
  z
    .object({
      disposition: z.enum(["started", "queued", "handled"]).meta({
        description:
          '"started": a run began (wait for `agent_settled`); "queued": queued while a run streams; "handled": an extension command or input handler consumed it (no run, no `agent_settled`).',
      }),
    })
    .meta({ description: "What became of the prompt." });
const QueuedDispositionSchema = () =>
  z
    .object({ disposition: z.enum(["queued", "handled"]).meta({ description: '"queued", or "handled" when an input handler consumed it.' }) })
    .meta({ description: "What became of the message." });

/** Writes a changed preference into the user's settings.json first: a preference that cannot be saved is an error and changes nothing. */
export type PersistSetting = (patch: Record<string, unknown>) => Promise<void>;

/** steer/follow_up never start a run: only "queued" or "handled". */
function queuedDisposition(disposition: PromptDisposition): QueuedInputDisposition {
  return disposition === "handled" ? "handled" : "queued";
}

export function agentCommands(agent: Agent, persist: PersistSetting): CommandDefinition<any, any>[] {
  return [
    defineCommand({
      name: "prompt",
      description: "Send a user prompt; while streaming, streamingBehavior queues it.",
      input: () =>
        z
          .object({
            message: messageSchema(),
            images: imagesSchema(),
            streamingBehavior: z
              .enum(["steer", "followUp"])
              .optional()
              .describe("While the agent is streaming (required then): queue the prompt as a steering or a follow-up message."),
          })
          .meta({ examples: [{ message: "Do the tests pass?" }] }),
      output: PromptDispositionSchema,
      run: async ({ message, images, streamingBehavior }, ctx) => ({
        disposition: await agent.prompt({ text: message, ...(images ? { images } : {}), ...(streamingBehavior ? { streamingBehavior } : {}), source: ctx.source, seq: ctx.seq }),
      }),
    }),
    defineCommand({
      name: "steer",
      description: "Queue a message delivered after the current turn's tool calls, before the next LLM call.",
      input: () => z.object({ message: messageSchema(), images: imagesSchema() }).meta({ examples: [{ message: "Use the fixtures folder instead" }] }),
      output: QueuedDispositionSchema,
      run: async ({ message, images }, ctx) => ({
        disposition: queuedDisposition(await agent.prompt({ text: message, ...(images ? { images } : {}), via: "steer", source: ctx.source, seq: ctx.seq })),
      }),
    }),
    defineCommand({
      name: "follow_up",
      description: "Queue a message delivered when the agent would otherwise stop.",
      input: () => z.object({ message: messageSchema(), images: imagesSchema() }).meta({ examples: [{ message: "Then update the changelog" }] }),
      output: QueuedDispositionSchema,
      run: async ({ message, images }, ctx) => ({
        disposition: queuedDisposition(await agent.prompt({ text: message, ...(images ? { images } : {}), via: "follow_up", source: ctx.source, seq: ctx.seq })),
      }),
    }),
    defineCommand({
      name: "clear_queue",
      description: "Remove every queued steering and follow-up message and return their texts (a client restores them to its editor, then aborts).",
      // Immediate, like abort: "clear_queue then abort" keeps its order whatever holds the ordinary lane.
      lane: "immediate",
      input: () => z.object({}),
      output: () =>
        z
          .object({
            steering: z.array(z.string()).meta({ description: "The steering texts that were waiting, in order." }),
            followUp: z.array(z.string()).meta({ description: "The follow-up texts that were waiting, in order." }),
          })
          .meta({ description: "What was queued; a `queue_update` with empty lists precedes this response." }),
      run: () => agent.takeQueues(),
    }),
    defineCommand({
      name: "abort",
      description: "Abort the current run; responds after its closing events.",
      lane: "immediate",
      input: () => z.object({}),
      output: NO_DATA,
      run: (_input, ctx) => agent.abort(ctx.seq, ctx.earlier),
    }),
    defineCommand({
      name: "get_state",
      description: "The session's state: model, thinking level, streaming, queues, session file and name, ...",
      input: () => z.object({}),
      output: () => agent.stateSchema(),
      run: () => agent.state(),
    }),
    defineCommand({
      name: "get_messages",
      description: "Every message of the conversation (the live context).",
      input: () => z.object({}),
      output: () => z.object({ messages: z.array(AgentMessageSchema()).describe("The messages, oldest first.") }),
      run: () => ({ messages: agent.getMessages() }),
    }),
    defineCommand({
      name: "get_last_assistant_text",
      description: "The text of the last assistant message.",
      input: () => z.object({}),
      output: () => z.object({ text: z.string().nullable().meta({ description: "null when there is no assistant message." }) }),
      run: () => {
        // The last assistant message (an aborted one with no content is skipped); its text or null.
        const messages = agent.getMessages();
        for (let i = messages.length - 1; i >= 0; i--) {
          const message = messages[i]!;
          if (message.role !== "assistant") continue;
          if (message.stopReason === "aborted" && message.content.length === 0) continue;
          return { text: assistantText(message) ?? null };
        }
        return { text: null };
      },
    }),
    defineCommand({
      name: "set_steering_mode",
      description: "How steering messages are delivered (saved to the user's settings).",
      input: () => z.object({ mode: queueModeSchema() }).meta({ examples: [{ mode: "one-at-a-time" }] }),
      output: NO_DATA,
      run: async ({ mode }) => {
        await persist({ steeringMode: mode });
        agent.setSteeringMode(mode);
      },
    }),
    defineCommand({
      name: "set_follow_up_mode",
      description: "How follow-up messages are delivered (saved to the user's settings).",
      input: () => z.object({ mode: queueModeSchema() }).meta({ examples: [{ mode: "all" }] }),
      output: NO_DATA,
      run: async ({ mode }) => {
        await persist({ followUpMode: mode });
        agent.setFollowUpMode(mode);
      },
    }),
  ];
}
