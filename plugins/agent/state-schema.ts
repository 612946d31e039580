/** The `get_state` response: the agent's own fields, then each state contributor's. */
import { z, type ZodRawShape } from "zod";
import { ModelSchema, THINKING_LEVELS } from "../../lib/llm/index.js";

const queueMode = () => z.enum(["all", "one-at-a-time"]);

export function stateSchema(contributed: ZodRawShape[]): z.ZodType {
  let shape: ZodRawShape = {
    model: ModelSchema().nullable().meta({ description: "The full Model object, or null." }),
    thinkingLevel: z.enum(THINKING_LEVELS).describe("The current thinking level."),
    isStreaming: z.boolean().describe("A run is in progress."),
    steeringMode: queueMode().describe("How steering messages are delivered."),
    followUpMode: queueMode().describe("How follow-up messages are delivered."),
    sessionId: z.string().optional().describe("The session's id (uuid)."),
    messageCount: z.number().describe("Messages in the conversation."),
    pendingMessageCount: z.number().describe("Steering and follow-up messages waiting to be delivered."),
  };
  for (const fields of contributed) shape = { ...shape, ...fields };
  return z.object(shape);
}
