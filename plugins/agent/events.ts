/** The event the agent core declares besides the kernel's run events: the queue's state. */
import { z } from "zod";

export const QueueUpdateSchema = () =>
  z
    .object({
      steering: z.array(z.string()).meta({ description: "Texts waiting for the next delivery point in a run, in order." }),
      followUp: z.array(z.string()).meta({ description: "Texts waiting for the agent to stop, in order." }),
    })
    .meta({ description: "The pending steering or follow-up queue changed." });

declare module "../../kernel/events.js" {
  interface EventMap {
    queue_update: z.output<ReturnType<typeof QueueUpdateSchema>>;
  }
}
