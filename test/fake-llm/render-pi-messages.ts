/**
 * pi's message protocol (`POST <base>/messages` with `{model, context, options}`: the Radius
 * gateway): server-sent events that are pi's assistant-message events, ending in `done`.
 */
import { argFragments, chunksOf, sse, stopOf, toolId, usageOf, type RenderContext, type Rendered } from "./render-common.js";
import type { FakeReply } from "./types.js";

export function renderPiMessages(reply: FakeReply, ctx: RenderContext): Rendered {
  const usage = usageOf(reply);
  const frames: string[] = [];
  const event = (body: Record<string, unknown>) => frames.push(sse(body));
  event({ type: "start" });
  let index = 0;
  if (reply.thinking !== undefined) {
    event({ type: "thinking_start", contentIndex: index });
    for (const part of chunksOf(reply.thinking)) event({ type: "thinking_delta", contentIndex: index, delta: part });
    event({ type: "thinking_end", contentIndex: index++, content: reply.thinking, contentSignature: "sig-fake" });
  }
  if (reply.text !== undefined) {
    event({ type: "text_start", contentIndex: index });
    for (const part of chunksOf(reply.text, reply.textChunks)) event({ type: "text_delta", contentIndex: index, delta: part });
    event({ type: "text_end", contentIndex: index++, content: reply.text });
  }
  (reply.toolCalls ?? []).forEach((call, n) => {
    const id = toolId("call_", ctx, n, call);
    event({ type: "toolcall_start", contentIndex: index, id, toolName: call.name });
    for (const fragment of argFragments(call, reply.splitArgs)) event({ type: "toolcall_delta", contentIndex: index, delta: fragment });
    event({ type: "toolcall_end", contentIndex: index++, toolCall: { type: "toolCall", id, name: call.name, arguments: call.args } });
  });
  const total = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
  const usageRecord = {
    input: usage.input,
    output: usage.output,
    cacheRead: usage.cacheRead,
    cacheWrite: usage.cacheWrite,
    totalTokens: total,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
  if (reply.streamError !== undefined) {
    event({ type: "error", reason: "error", errorMessage: reply.streamError, usage: usageRecord });
    return { frames, malformedAfter: 1 };
  }
  const stop = stopOf(reply);
  event({ type: "done", reason: stop === "error" ? "stop" : stop, usage: usageRecord });
  return { frames, malformedAfter: 1 };
}

/** pi's error body: `{"error":{"message","code"}}`. */
export function piMessagesError(status: number, message: string): string {
  return JSON.stringify({ error: { message, code: status === 429 ? "rate_limited" : "error" } });
}
