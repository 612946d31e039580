/** Anthropic Messages streaming: SSE with named events (`POST /v1/messages`). */
import { argFragments, chunksOf, sse, stopOf, toolId, usageOf, type RenderContext, type Rendered } from "./render-common.js";
import type { FakeReply } from "./types.js";

const STOP = { stop: "end_turn", length: "max_tokens", toolUse: "tool_use", error: "refusal" } as const;

export const THINKING_SIGNATURE_PARTS = ["sig-part-1", "sig-part-2"];

export function renderAnthropic(reply: FakeReply, ctx: RenderContext): Rendered {
  const usage = usageOf(reply);
  const frames: string[] = [];
  const emit = (type: string, data: Record<string, unknown>) => frames.push(sse({ type, ...data }, type));
  emit("message_start", {
    message: {
      id: `msg_fake_${ctx.seq}`,
      type: "message",
      role: "assistant",
      model: ctx.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input,
        output_tokens: 1,
        cache_read_input_tokens: usage.cacheRead,
        cache_creation_input_tokens: usage.cacheWrite,
        cache_creation: { ephemeral_5m_input_tokens: usage.cacheWrite - (usage.cacheWrite1h ?? 0), ephemeral_1h_input_tokens: usage.cacheWrite1h ?? 0 },
      },
    },
  });
  emit("ping", {});
  let index = 0;
  if (reply.redactedThinking !== undefined) {
    emit("content_block_start", { index, content_block: { type: "redacted_thinking", data: reply.redactedThinking } });
    emit("content_block_stop", { index });
    index++;
  }
  if (reply.thinking !== undefined) {
    emit("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } });
    for (const chunk of chunksOf(reply.thinking)) emit("content_block_delta", { index, delta: { type: "thinking_delta", thinking: chunk } });
    for (const part of THINKING_SIGNATURE_PARTS) emit("content_block_delta", { index, delta: { type: "signature_delta", signature: part } });
    emit("content_block_stop", { index });
    index++;
  }
  if (reply.text !== undefined) {
    emit("content_block_start", { index, content_block: { type: "text", text: "" } });
    for (const chunk of chunksOf(reply.text, reply.textChunks)) emit("content_block_delta", { index, delta: { type: "text_delta", text: chunk } });
    emit("content_block_stop", { index });
    index++;
  }
  (reply.toolCalls ?? []).forEach((call, i) => {
    emit("content_block_start", { index, content_block: { type: "tool_use", id: toolId("toolu_fake_", ctx, i, call), name: call.name, input: {} } });
    for (const fragment of argFragments(call, reply.splitArgs)) emit("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: fragment } });
    emit("content_block_stop", { index });
    index++;
  });
  if (reply.streamErrorBody !== undefined) {
    frames.push(sse(reply.streamErrorBody, "error"));
    return { frames, malformedAfter: 1 };
  }
  if (reply.streamError !== undefined) {
    frames.push(sse({ type: "error", error: { type: "overloaded_error", message: reply.streamError } }, "error"));
    return { frames, malformedAfter: 1 };
  }
  emit("message_delta", { delta: { stop_reason: STOP[stopOf(reply)], stop_sequence: null }, usage: { output_tokens: usage.output } });
  emit("message_stop", {});
  return { frames, malformedAfter: 1 };
}

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

export function anthropicError(status: number, message: string): string {
  return JSON.stringify({ type: "error", error: { type: ERROR_TYPES[status] ?? "api_error", message } });
}
