/**
 * The `eventOptions` service and what it projects: how this client wants the outward stream
 * shaped (`set_event_options`). Transports read it when they serialise; the default options
 * leave every record exactly as the protocol shows it.
 */
import { z } from "zod";
import { stringifyRecord } from "../../lib/jsonl/index.js";

export const MessageUpdatesSchema = () =>
  z.enum(["delta", "full"]).meta({ description: '"delta": `message_update` without `message` and without `assistantMessageEvent.partial`.' });

export const EventOptionsSchema = () =>
  z
    .object({
      messageUpdates: MessageUpdatesSchema(),
      agentSettled: z.boolean().meta({ description: "Emit `agent_settled` once nothing is pending after a prompt (default true, as pi 1.x)." }),
    })
    .meta({ description: "The event options in force." });

export type EventOptions = z.output<ReturnType<typeof EventOptionsSchema>>;

export const AgentSettledSchema = () =>
  z
    .object({ aborted: z.boolean().meta({ description: "True when an abort ended the prompt's run." }) })
    .strict()
    .meta({
      description:
        'The prompt is fully done: after its last `agent_end`, with no retry, compaction or continuation pending (pi 1.x). Once per prompt that started a run (not for `disposition: "handled"`); `set_event_options {agentSettled: false}` turns it off.',
      examples: [{ aborted: false }],
    });

/** `message_update` in full (the protocol's snapshots); `agent_settled` on, as pi 1.x emits it. */
export const DEFAULT_EVENT_OPTIONS: Readonly<EventOptions> = Object.freeze({ messageUpdates: "full", agentSettled: true });

export interface EventOptionsApi {
  /** The options in force (a copy). */
  current(): EventOptions;
  /** True when `message_update` records are to be written as deltas. */
  readonly deltaUpdates: boolean;
}

/**
 * A `message_update` in delta form: the stream event without its `partial` snapshot and no
 * `message` (pi 1.x's wire form, `usage` kept), so the bytes written grow with the delta, not
 * with the answer.
 */
export function deltaUpdate(event: { usage?: unknown; assistantMessageEvent: object }): { type: "message_update"; usage?: unknown; assistantMessageEvent: object } {
  const { partial: _partial, ...delta } = event.assistantMessageEvent as { partial?: unknown };
  return event.usage === undefined ? { type: "message_update", assistantMessageEvent: delta } : { type: "message_update", usage: event.usage, assistantMessageEvent: delta };
}

/**
 * A full-form `message_update` as pi 1.6 writes a tool call's start and argument fragments: no
 * `partial` in the event (the record's `message` is the same snapshot), the start naming the
 * call (`id`, `toolName`). Clients written for pi (pi-acp) announce a call only from its end
 * event: with the snapshot there they reported every fragment as one more pending update.
 * Other records are returned as they are.
 */
export function piToolCallUpdate<E extends { type: string; assistantMessageEvent?: object }>(event: E): E {
  const inner = event.assistantMessageEvent as { type?: unknown; contentIndex?: unknown; partial?: { content?: unknown[] } } | undefined;
  if (event.type !== "message_update" || !inner || (inner.type !== "toolcall_start" && inner.type !== "toolcall_delta") || inner.partial === undefined) return event;
  const { partial, ...rest } = inner;
  if (inner.type === "toolcall_delta") return { ...event, assistantMessageEvent: rest };
  const call = partial.content?.[inner.contentIndex as number] as { type?: string; id?: string; name?: string } | undefined;
  const named = call?.type === "toolCall" ? { ...rest, id: call.id, toolName: call.name } : rest;
  return { ...event, assistantMessageEvent: named };
}

const DELTA_TYPES = new Set(["text_delta", "thinking_delta", "toolcall_delta"]);

/** The JSON line (without its line feed) of `deltaUpdate(event)`: the fast path below, else the general serialiser. */
export function deltaUpdateJson(event: { usage?: unknown; assistantMessageEvent: object }): string {
  return streamedDeltaJson(event) ?? stringifyRecord(deltaUpdate(event));
}

/**
 * The JSON of `deltaUpdate(event)` for the records that make up almost all of a streamed answer
 * (a text, thinking or tool-argument delta, as the provider kit's builder shapes it), written
 * directly: a 5,000-delta answer spent half its serialising time copying each event without its
 * `partial` and walking the copy. Undefined for any other shape (same keys in the same order
 * only, so the text is exactly JSON.stringify's).
 */
export function streamedDeltaJson(event: { usage?: unknown; assistantMessageEvent: object }): string | undefined {
  const inner = event.assistantMessageEvent as { type?: unknown; contentIndex?: unknown; delta?: unknown };
  if (!DELTA_TYPES.has(inner.type as string) || typeof inner.delta !== "string" || !Number.isSafeInteger(inner.contentIndex)) return undefined;
  const keys = Object.keys(inner);
  if (keys.length !== 4 || keys[0] !== "type" || keys[1] !== "contentIndex" || keys[2] !== "delta" || keys[3] !== "partial") return undefined;
  // The usage object is small (a dozen numbers): serialising it per delta keeps the output linear.
  const usage = event.usage === undefined ? "" : `"usage":${JSON.stringify(event.usage)},`;
  return `{"type":"message_update",${usage}"assistantMessageEvent":{"type":"${inner.type as string}","contentIndex":${inner.contentIndex as number},"delta":${JSON.stringify(inner.delta)}}}`;
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
