/**
 * Replays one recorded turn as a live stream: rebuilds the partial assistant message event by
 * event, exactly as a real provider adapter would, and honours abort between events.
 */
import { parse as parsePartialJson } from "partial-json";
import { emptyUsage, type AssistantMessage, type AssistantMessageEvent, type Model, type StreamRequest, type ToolCall } from "../../kernel/index.js";
import type { Cassette, CassetteEvent } from "./cassette.js";

export async function* replayTurn(cassette: Cassette, model: Model, request: StreamRequest): AsyncGenerator<AssistantMessageEvent> {
  const { signal, callIndex } = request.options;
  const partial: AssistantMessage = {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: emptyUsage(),
    stopReason: "stop",
    timestamp: Date.now(),
  };
  const rawArgs = new Map<number, string>();
  yield { type: "start", partial };

  const turn = cassette.turns[callIndex - 1];
  if (!turn) {
    yield fail(partial, "error", `Cassette exhausted: ${cassette.name}`);
    return;
  }
  for (const event of turn) {
    if (cassette.eventDelayMs > 0) await sleep(cassette.eventDelayMs, signal);
    if (signal.aborted) {
      yield fail(partial, "aborted", "Request was aborted");
      return;
    }
    const out = apply(partial, event, rawArgs);
    if (out) yield out;
    if (event.type === "done" || event.type === "error") return;
  }
  yield fail(partial, "error", `Cassette turn ${callIndex} of ${cassette.name} ended without a done event`);
}

function apply(partial: AssistantMessage, event: CassetteEvent, rawArgs: Map<number, string>): AssistantMessageEvent | undefined {
  const content = partial.content;
  switch (event.type) {
    case "text_start":
      content[event.contentIndex] = { type: "text", text: "" };
      return { type: "text_start", contentIndex: event.contentIndex, partial };
    case "text_delta": {
      const block = content[event.contentIndex] as { text: string };
      block.text += event.delta;
      return { type: "text_delta", contentIndex: event.contentIndex, delta: event.delta, partial };
    }
    case "text_end":
      return { type: "text_end", contentIndex: event.contentIndex, content: (content[event.contentIndex] as { text: string }).text, partial };
    case "thinking_start":
      content[event.contentIndex] = { type: "thinking", thinking: "" };
      return { type: "thinking_start", contentIndex: event.contentIndex, partial };
    case "thinking_delta": {
      const block = content[event.contentIndex] as { thinking: string };
      block.thinking += event.delta;
      return { type: "thinking_delta", contentIndex: event.contentIndex, delta: event.delta, partial };
    }
    case "thinking_end":
      return { type: "thinking_end", contentIndex: event.contentIndex, content: (content[event.contentIndex] as { thinking: string }).thinking, partial };
    case "toolcall_start":
      content[event.contentIndex] = { type: "toolCall", id: event.id, name: event.name, arguments: {} };
      rawArgs.set(event.contentIndex, "");
      return { type: "toolcall_start", contentIndex: event.contentIndex, partial };
    case "toolcall_delta": {
      const raw = (rawArgs.get(event.contentIndex) ?? "") + event.delta;
      rawArgs.set(event.contentIndex, raw);
      const block = content[event.contentIndex] as ToolCall;
      block.arguments = parseArgs(raw);
      return { type: "toolcall_delta", contentIndex: event.contentIndex, delta: event.delta, partial };
    }
    case "toolcall_end": {
      const block = content[event.contentIndex] as ToolCall;
      if (event.toolCall) Object.assign(block, { id: event.toolCall.id, name: event.toolCall.name, arguments: event.toolCall.arguments });
      else block.arguments = parseArgs(rawArgs.get(event.contentIndex) ?? "");
      return { type: "toolcall_end", contentIndex: event.contentIndex, toolCall: { ...block }, partial };
    }
    case "done": {
      const usage = event.usage ?? {};
      const input = usage.input ?? 0;
      const output = usage.output ?? 0;
      const cacheRead = usage.cacheRead ?? 0;
      const cacheWrite = usage.cacheWrite ?? 0;
      partial.usage = { ...emptyUsage(), input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite };
      partial.stopReason = event.reason;
      return { type: "done", reason: event.reason, message: { ...partial, content: [...partial.content] }, partial };
    }
    case "error":
      return fail(partial, event.reason ?? "error", event.errorMessage);
  }
}

function fail(partial: AssistantMessage, reason: "error" | "aborted", errorMessage: string): AssistantMessageEvent {
  partial.stopReason = reason;
  partial.errorMessage = errorMessage;
  return { type: "error", reason, error: { ...partial, content: [...partial.content] }, partial };
}

function parseArgs(raw: string): Record<string, unknown> {
  if (raw.trim() === "") return {};
  try {
    const value = parsePartialJson(raw) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
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
