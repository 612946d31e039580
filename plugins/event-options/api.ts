/**
 * The `eventOptions` service and what it projects: how this client wants the outward stream
 * shaped (`set_event_options`). Transports read it when they serialise; the default options
 * leave every record exactly as the protocol shows it.
 */
import { z } from "zod";
import { defineSetting } from "../../kernel/index.js";
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

/**
 * The `eventOptions` settings key: the options a client starts with, as if its first record were
 * `set_event_options` (a client that cannot send it, such as pi-acp, which expects pi 1.x's
 * `message_update` form: `{"eventOptions": {"messageUpdates": "delta"}}`).
 */
export const eventOptionsSetting = defineSetting(() => z.object({ messageUpdates: MessageUpdatesSchema().optional(), agentSettled: z.boolean().optional() }), {
  description:
    'The event options each client starts with, as if it had sent `set_event_options` first: messageUpdates ("full", the protocol\'s snapshots; "delta": pi 1.x\'s form, for pi-acp), agentSettled (true).',
});

/** The options a client starts with: the defaults, over them the `eventOptions` setting. */
export function startingEventOptions(settings: { eventOptions?: Partial<EventOptions> | undefined }): EventOptions {
  const configured = settings.eventOptions ?? {};
  return {
    messageUpdates: configured.messageUpdates ?? DEFAULT_EVENT_OPTIONS.messageUpdates,
    agentSettled: configured.agentSettled ?? DEFAULT_EVENT_OPTIONS.agentSettled,
  };
}

export interface EventOptionsApi {
  /** The options in force (a copy). */
  current(): EventOptions;
  /** True when `message_update` records are to be written as deltas. */
  readonly deltaUpdates: boolean;
}

/**
 * A `message_update` in delta form: the stream event without its `partial` snapshot and no
 * `message` (pi 1.x's wire form, `usage` kept), so the bytes written grow with the delta, not
 * with the answer. Without the snapshot a `toolcall_start` names its call (`id`, `toolName`),
 * as pi 1.6 writes it: nothing else would say which call started before its end.
 */
export function deltaUpdate(event: { usage?: unknown; assistantMessageEvent: object }): { type: "message_update"; usage?: unknown; assistantMessageEvent: object } {
  const { partial, ...rest } = event.assistantMessageEvent as { type?: unknown; contentIndex?: unknown; partial?: { content?: unknown } };
  const delta = rest.type === "toolcall_start" ? namedStart(rest, partial) : rest;
  return event.usage === undefined ? { type: "message_update", assistantMessageEvent: delta } : { type: "message_update", usage: event.usage, assistantMessageEvent: delta };
}

function namedStart(start: { contentIndex?: unknown }, partial: { content?: unknown } | undefined): object {
  const content = Array.isArray(partial?.content) ? partial.content : [];
  const call = content[start.contentIndex as number] as { type?: unknown; id?: unknown; name?: unknown } | undefined;
  return call?.type === "toolCall" ? { ...start, id: call.id, toolName: call.name } : start;
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

declare module "../../kernel/config.js" {
  interface Settings {
    eventOptions?: z.output<ReturnType<(typeof eventOptionsSetting)["schema"]>>;
  }
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
