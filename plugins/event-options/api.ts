/**
 * The `eventOptions` service and what it projects: how this client wants the outward stream
 * shaped (`set_event_options`). Transports read it when they serialise; the default options
 * leave every record exactly as the spec shows it.
 */
import { z } from "zod";

export const MessageUpdatesSchema = () => z.enum(["delta", "full"]).meta({ description: '"delta": `message_update` without `message` and without `assistantMessageEvent.partial`.' });

export const EventOptionsSchema = () =>
  z
    .object({
      messageUpdates: MessageUpdatesSchema(),
      agentSettled: z.boolean().meta({ description: "Emit `agent_settled` once nothing is pending after a prompt." }),
    })
    .meta({ description: "The event options in force." });

export type EventOptions = z.output<ReturnType<typeof EventOptionsSchema>>;

export const AgentSettledSchema = () =>
  z.object({}).strict().meta({ description: "Opt-in (`set_event_options`): the prompt is fully done; no run, retry, compaction or continuation is pending." });

export const DEFAULT_EVENT_OPTIONS: Readonly<EventOptions> = Object.freeze({ messageUpdates: "full", agentSettled: false });

export interface EventOptionsApi {
  /** The options in force (a copy). */
  current(): EventOptions;
  /** True when `message_update` records are to be written as deltas. */
  readonly deltaUpdates: boolean;
}

/**
 * A `message_update` in delta form: the stream event without its `partial` snapshot and no
 * `message`, so the bytes written grow with the delta, not with the answer.
 */
export function deltaUpdate(event: { assistantMessageEvent: object }): { type: "message_update"; assistantMessageEvent: object } {
  const { partial: _partial, ...delta } = event.assistantMessageEvent as { partial?: unknown };
  return { type: "message_update", assistantMessageEvent: delta };
}

declare module "../../kernel/services.js" {
  interface Services {
    eventOptions: EventOptionsApi;
  }
}

declare module "../../kernel/events.js" {
  interface EventMap {
    agent_settled: z.output<ReturnType<typeof AgentSettledSchema>>;
  }
}
