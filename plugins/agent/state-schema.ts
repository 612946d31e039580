/** The `get_state` response: the agent's own fields, then each state contributor's. */
import { z, type ZodRawShape } from "zod";
import { ModelSchema, THINKING_LEVELS } from "../../lib/llm/index.js";

const queueMode = () => z.enum(["all", "one-at-a-time"]);

export function stateSchema(contributed: ZodRawShape[]): z.ZodType {
  let shape: ZodRawShape = {
    model: ModelSchema().nullable().meta({ description: "The full Model object, or null." }),
    thinkingLevel: z.enum(THINKING_LEVELS),
    isStreaming: z.boolean(),
    steeringMode: queueMode(),
    followUpMode: queueMode(),
    sessionId: z.string().optional(),
    messageCount: z.number(),
    pendingMessageCount: z.number(),
  };
  for (const fields of contributed) shape = { ...shape, ...fields };
  return z.object(shape);
}
