/** The `get_state` response: the agent's own fields, then each state contributor's. */
import { z, type ZodRawShape } from "zod";
import { ModelSchema, THINKING_LEVELS } from "../../lib/llm/index.js";
import type { StateContributor } from "./api.js";

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

/** What other plugins add to `get_state` (the session file, compaction, the scoped models...). */
export class StateContributions {
  readonly #entries: { contributor: StateContributor; fields: () => ZodRawShape }[] = [];

  add(contributor: StateContributor, fields: () => ZodRawShape): void {
    this.#entries.push({ contributor, fields });
  }

  schema(): z.ZodType {
    return stateSchema(this.#entries.map((entry) => entry.fields()));
  }

  /** `base` with every contributor's fields assigned over it, in registration order. */
  collect(base: Record<string, unknown>): Record<string, unknown> {
    for (const { contributor } of this.#entries) Object.assign(base, contributor());
    return base;
  }
}
