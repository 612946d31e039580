/**
 * Replays one recorded turn as a live stream, through the same stream builder the real
 * provider adapters use (so the partial message evolves exactly as it did when recorded),
 * honouring abort between events.
 */
import type { AssistantMessageEvent, Model, StreamRequest } from "../../lib/llm/index.js";
import { AssistantStreamBuilder } from "../../lib/provider-kit/stream-builder.js";
import { tapeFor, type Cassette, type CassetteEvent } from "./cassette.js";

/**
 * The turn's events in batches (the kernel's `eventBatches`): an unpaced cassette is one lazy
 * batch, walked without an async step per event; a paced one (`eventDelayMs`) one event per
 * batch, the delay before each.
 */
export async function* replayTurnBatches(cassette: Cassette, model: Model, request: StreamRequest): AsyncGenerator<Iterable<AssistantMessageEvent>, void, undefined> {
  const events = turnEvents(cassette, model, request);
  if (cassette.eventDelayMs <= 0) {
    yield events;
    return;
  }
  for (let next = events.next(); !next.done; next = events.next()) {
    yield [next.value];
    await sleep(cassette.eventDelayMs, request.options.signal);
  }
}

/** The turn's events, each mapped as it is reached; an abort is seen before each recorded event. */
function* turnEvents(cassette: Cassette, model: Model, request: StreamRequest): Generator<AssistantMessageEvent, void, undefined> {
  const { signal, callIndex } = request.options;
  const stream = new AssistantStreamBuilder(model);
  yield stream.start();

  const tape = tapeFor(cassette, promptOf(request));
  if (!tape) {
    yield stream.error(`Cassette ${cassette.name} has no tape for this prompt (and no default tape)`);
    return;
  }
  const turn = tape.turns[callIndex - 1];
  if (!turn) {
    yield stream.error(`Cassette exhausted: ${cassette.name}`);
    return;
  }
  for (const event of turn) {
    if (signal.aborted) {
      yield stream.error("Request was aborted", true);
      return;
    }
    yield event.type === "quote_tool_result" ? stream.textDelta(event.contentIndex, quoteLastToolResult(request)) : apply(stream, event);
    if (event.type === "done" || event.type === "error") return;
  }
  yield stream.error(`Cassette turn ${callIndex} of ${cassette.name} has no done event`);
}

/** The run's prompt: the text of the last user message (later calls of a run see the same one). */
function promptOf(request: StreamRequest): string {
  const messages = request.context.messages;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== "user") continue;
    return typeof message.content === "string" ? message.content : message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
  }
  return "";
}

/** The text of the context's last tool result, fenced, as a model that read it would quote it. */
function quoteLastToolResult(request: StreamRequest): string {
  const messages = request.context.messages;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== "toolResult") continue;
    const text = message.content
      .flatMap((block) => (block.type === "text" ? [block.text] : []))
      .join("\n")
      .trimEnd();
    return `\n\n\`\`\`\n${text || "(no output)"}\n\`\`\`\n\n`;
  }
  return "\n\n(no tool result to quote)\n\n";
}

/** Cassette content indexes are the builder's block keys. */
function apply(stream: AssistantStreamBuilder, event: Exclude<CassetteEvent, { type: "quote_tool_result" }>): AssistantMessageEvent {
  switch (event.type) {
    case "text_start":
      return stream.textStart(event.contentIndex);
    case "text_delta":
      return stream.textDelta(event.contentIndex, event.delta);
    case "thinking_start":
      return stream.thinkingStart(event.contentIndex);
    case "thinking_delta":
      return stream.thinkingDelta(event.contentIndex, event.delta);
    case "toolcall_start":
      return stream.toolCallStart(event.contentIndex, { id: event.id, name: event.name });
    case "toolcall_delta":
      return stream.toolCallDelta(event.contentIndex, event.delta);
    case "text_end":
    case "thinking_end":
      return stream.end(event.contentIndex);
    case "toolcall_end":
      if (!event.toolCall) return stream.end(event.contentIndex);
      stream.patchToolCall(event.contentIndex, { id: event.toolCall.id, name: event.toolCall.name });
      return stream.end(event.contentIndex, JSON.stringify(event.toolCall.arguments));
    case "done":
      if (event.usage) stream.setUsage(event.usage);
      return stream.done(event.reason);
    case "error":
      return stream.error(event.errorMessage, event.reason === "aborted");
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
