/**
 * The outward event stream (agent_start, message_update, queue_update, ...). Plugins emit,
 * transports subscribe. Fan-out is synchronous so every listener sees events in emit order;
 * producers that can flood (streamed deltas) await `drain()` to respect a slow consumer.
 */

import type { AgentMessage, AssistantMessage, AssistantMessageEvent, ToolResultMessage } from "./types.js";

/**
 * The outward events and their payloads (the spec's Events section). Plugins add their own
 * event types by augmenting this interface; unknown names stay allowed for foreign plugins.
 */
export interface EventMap {
  [type: string]: Record<string, unknown>;
  agent_start: {};
  agent_end: { messages: AgentMessage[] };
  turn_start: {};
  turn_end: { message: AssistantMessage; toolResults: ToolResultMessage[] };
  message_start: { message: AgentMessage };
  message_update: { message: AssistantMessage; assistantMessageEvent: AssistantMessageEvent };
  message_end: { message: AgentMessage };
  tool_execution_start: { toolCallId: string; toolName: string; args: unknown };
  tool_execution_update: { toolCallId: string; toolName: string; args: unknown; partialResult: unknown };
  tool_execution_end: { toolCallId: string; toolName: string; result: unknown; isError: boolean };
  queue_update: { steering: string[]; followUp: string[] };
  auto_retry_start: { attempt: number; maxAttempts: number; delayMs: number; errorMessage: string };
  auto_retry_end: { success: boolean; attempt: number; finalError?: string };
  extension_error: { extensionPath: string; event: string; error: string };
}

export type OutEvent = { type: string } & Record<string, unknown>;
export type EventListener = (event: OutEvent) => void;
type PressureSource = () => Promise<void> | undefined;

export class EventBus {
  readonly #listeners = new Set<EventListener>();
  readonly #pressure = new Set<PressureSource>();
  readonly #onListenerError: (error: unknown) => void;

  constructor(onListenerError: (error: unknown) => void) {
    this.#onListenerError = onListenerError;
  }

  subscribe(listener: EventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit<K extends keyof EventMap & string>(type: K, payload: EventMap[K]): void {
    const event = { type, ...payload } as OutEvent;
    this.dispatch(event);
  }

  /** Sends an already-shaped event object (its `type` first) without copying it. */
  dispatch(event: OutEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.#onListenerError(error);
      }
    }
  }

  /** A consumer (e.g. stdout) reports congestion through this; returns the unregister function. */
  addPressureSource(source: PressureSource): () => void {
    this.#pressure.add(source);
    return () => this.#pressure.delete(source);
  }

  /** Undefined when nobody is congested (the common case costs no promise), else a promise to await. */
  drain(): Promise<void> | undefined {
    let waits: Promise<void>[] | undefined;
    for (const source of this.#pressure) {
      const wait = source();
      if (wait) (waits ??= []).push(wait);
    }
    if (!waits) return undefined;
    return waits.length === 1 ? waits[0] : Promise.all(waits).then(() => undefined);
  }
}
