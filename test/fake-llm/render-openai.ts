/**
 * OpenAI wire formats: Chat Completions chunks with a usage chunk and `[DONE]`
 * (`POST /v1/chat/completions`), and Responses API events (`POST /v1/responses`).
 */
import { argFragments, chunksOf, sse, stopOf, toolId, usageOf, type RenderContext, type Rendered } from "./render-common.js";
import type { FakeReply } from "./types.js";

const CHAT_FINISH = { stop: "stop", length: "length", toolUse: "tool_calls", error: "content_filter" } as const;

export function renderOpenAiChat(reply: FakeReply, ctx: RenderContext): Rendered {
  const usage = usageOf(reply);
  const frames: string[] = [];
  const base = { id: `chatcmpl-fake-${ctx.seq}`, object: "chat.completion.chunk", created: 1_700_000_000, model: ctx.model };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    frames.push(sse({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] }));
  chunk({ role: "assistant", content: "" });
  const reasoningField = reply.reasoningField ?? "reasoning_content";
  if (reply.thinking !== undefined) {
    for (const part of chunksOf(reply.thinking))
      chunk(reply.thinkingChunks ? { content: [{ type: "thinking", thinking: [{ type: "text", text: part }] }] } : { [reasoningField]: part });
  }
  if (reply.text !== undefined) for (const part of chunksOf(reply.text, reply.textChunks)) chunk({ content: part });
  (reply.toolCalls ?? []).forEach((call, index) => {
    // The id and name come only on a call's first fragment, as OpenAI sends them.
    const id = toolId("call_fake_", ctx, index, call);
    chunk({ tool_calls: [{ index, id, type: "function", function: { name: call.name, arguments: "" } }] });
    for (const fragment of argFragments(call, reply.splitArgs)) chunk({ tool_calls: [{ index, function: { arguments: fragment } }] });
    // OpenRouter passes a model's encrypted reasoning along, tied to the call it belongs to.
    if (reply.reasoningDetails) chunk({ reasoning_details: [{ type: "reasoning.encrypted", id, data: `enc_${id}`, format: "google-gemini-v1", index: 0 }] });
  });
  if (reply.streamErrorBody !== undefined) {
    frames.push(sse(reply.streamErrorBody));
    return { frames, malformedAfter: 1 };
  }
  if (reply.streamError !== undefined) {
    frames.push(sse({ error: { message: reply.streamError, type: "server_error", param: null, code: null } }));
    return { frames, malformedAfter: 1 };
  }
  chunk({}, reply.finishReason ?? CHAT_FINISH[stopOf(reply)]);
  const usageRecord =
    reply.chatUsage !== undefined
      ? reply.chatUsage
      : {
          prompt_tokens: usage.input + usage.cacheRead,
          completion_tokens: usage.output,
          total_tokens: usage.input + usage.cacheRead + usage.output,
          prompt_tokens_details: { cached_tokens: usage.cacheRead },
        };
  if (usageRecord) frames.push(sse({ ...base, choices: [], usage: usageRecord }));
  frames.push(sse("[DONE]"));
  return { frames, malformedAfter: 1 };
}

export function renderOpenAiResponses(reply: FakeReply, ctx: RenderContext): Rendered {
  const usage = usageOf(reply);
  const frames: string[] = [];
  let sequence = 0;
  const emit = (type: string, data: Record<string, unknown>) => frames.push(sse({ type, sequence_number: sequence++, ...data }, type));
  const responseId = `resp_fake_${ctx.seq}`;
  const response = (status: string, output: unknown[], extra: Record<string, unknown> = {}) => ({
    id: responseId,
    object: "response",
    created_at: 1_700_000_000,
    status,
    model: ctx.model,
    output,
    ...extra,
  });
  emit("response.created", { response: response("in_progress", []) });
  emit("response.in_progress", { response: response("in_progress", []) });
  const output: Record<string, unknown>[] = [];
  let outputIndex = 0;

  if (reply.thinking !== undefined) {
    const id = `rs_fake_${ctx.seq}`;
    const output_index = outputIndex++;
    emit("response.output_item.added", { output_index, item: { id, type: "reasoning", summary: [] } });
    emit("response.reasoning_summary_part.added", { item_id: id, output_index, summary_index: 0, part: { type: "summary_text", text: "" } });
    for (const delta of chunksOf(reply.thinking)) emit("response.reasoning_summary_text.delta", { item_id: id, output_index, summary_index: 0, delta });
    emit("response.reasoning_summary_text.done", { item_id: id, output_index, summary_index: 0, text: reply.thinking });
    emit("response.reasoning_summary_part.done", { item_id: id, output_index, summary_index: 0, part: { type: "summary_text", text: reply.thinking } });
    const item = { id, type: "reasoning", summary: [{ type: "summary_text", text: reply.thinking }], encrypted_content: `enc_${ctx.seq}` };
    emit("response.output_item.done", { output_index, item });
    output.push(item);
  }
  if (reply.text !== undefined) {
    const id = `msg_fake_${ctx.seq}`;
    const output_index = outputIndex++;
    emit("response.output_item.added", {
      output_index,
      item: { id, type: "message", role: "assistant", status: "in_progress", content: [], ...(reply.phase ? { phase: reply.phase } : {}) },
    });
    emit("response.content_part.added", { item_id: id, output_index, content_index: 0, part: { type: "output_text", text: "", annotations: [] } });
    for (const delta of chunksOf(reply.text, reply.textChunks)) emit("response.output_text.delta", { item_id: id, output_index, content_index: 0, delta, logprobs: [] });
    emit("response.output_text.done", { item_id: id, output_index, content_index: 0, text: reply.text, logprobs: [] });
    const part = { type: "output_text", text: reply.text, annotations: [] };
    emit("response.content_part.done", { item_id: id, output_index, content_index: 0, part });
    const item = { id, type: "message", role: "assistant", status: "completed", content: [part], ...(reply.phase ? { phase: reply.phase } : {}) };
    emit("response.output_item.done", { output_index, item });
    output.push(item);
  }
  (reply.toolCalls ?? []).forEach((call, index) => {
    const id = `fc_fake_${ctx.seq}_${index}`;
    const callId = toolId("call_fake_", ctx, index, call);
    const output_index = outputIndex++;
    const args = JSON.stringify(call.args);
    emit("response.output_item.added", { output_index, item: { id, type: "function_call", call_id: callId, name: call.name, arguments: "", status: "in_progress" } });
    for (const delta of argFragments(call, reply.splitArgs)) emit("response.function_call_arguments.delta", { item_id: id, output_index, delta });
    emit("response.function_call_arguments.done", { item_id: id, output_index, arguments: args });
    const item = { id, type: "function_call", call_id: callId, name: call.name, arguments: args, status: "completed" };
    emit("response.output_item.done", { output_index, item });
    output.push(item);
  });
  if (reply.streamErrorBody !== undefined) {
    frames.push(sse(reply.streamErrorBody, "error"));
    return { frames, malformedAfter: 1 };
  }
  if (reply.streamError !== undefined) {
    emit("error", { code: "server_error", message: reply.streamError, param: null });
    return { frames, malformedAfter: 1 };
  }
  const usageBlock = {
    input_tokens: usage.input + usage.cacheRead,
    input_tokens_details: { cached_tokens: usage.cacheRead },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.input + usage.cacheRead + usage.output,
  };
  const stop = stopOf(reply);
  if (stop === "length" || reply.incompleteReason) {
    emit("response.incomplete", { response: response("incomplete", output, { usage: usageBlock, incomplete_details: { reason: reply.incompleteReason ?? "max_output_tokens" } }) });
  } else if (stop === "error") {
    emit("response.failed", { response: response("failed", output, { usage: usageBlock, error: { code: "server_error", message: "The response failed" } }) });
  } else {
    emit("response.completed", { response: response("completed", output, { usage: usageBlock }) });
  }
  return { frames, malformedAfter: 1 };
}

export function openAiError(status: number, message: string): string {
  const type = status === 429 ? "rate_limit_exceeded" : status >= 500 ? "server_error" : "invalid_request_error";
  const code = /context/i.test(message) ? "context_length_exceeded" : type;
  return JSON.stringify({ error: { message, type, param: null, code } });
}
