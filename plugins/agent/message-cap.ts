/**
 * The most one assistant message may hold. A model stuck in a loop (or a hostile server)
 * streams without end; every character is kept in memory, in the session file, in the next
 * request, and (in the default `message_update` format, which carries the whole message so far)
 * written to stdout again with each update: one 1.2 GB answer made 110 GB of stdout. Past the
 * cap the stream is stopped and the message ends as an `error`, which is not retried.
 */
import type { AssistantMessage, AssistantMessageEvent } from "../../lib/llm/index.js";

/** 8 Mi characters: sixteen times the longest answer today's models may give (128k tokens). */
export const DEFAULT_MAX_MESSAGE_CHARS = 8 * 1024 * 1024;

export class MessageSizeCap {
  readonly #max: number;
  #chars = 0;

  constructor(max = DEFAULT_MAX_MESSAGE_CHARS) {
    this.#max = max;
  }

  /** Counts what `event` adds; true once the message holds more than the cap. */
  exceeded(event: AssistantMessageEvent): boolean {
    if (event.type === "text_delta" || event.type === "thinking_delta" || event.type === "toolcall_delta") this.#chars += event.delta.length;
    return this.#chars > this.#max;
  }

  /** The message the turn ends with: what came so far, stopped as an error that says why. */
  stopped(partial: AssistantMessage): AssistantMessage {
    const errorMessage = `The assistant message grew past ${this.#max} characters, the most one message may hold (settings: assistantMessageMaxChars), so its stream was stopped`;
    return { ...partial, content: [...partial.content], stopReason: "error", errorMessage };
  }
}
