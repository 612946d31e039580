/**
 * Amazon Bedrock's Converse API (`POST /model/{id}/converse-stream`, every Bedrock model but
 * Claude through the AWS SDK): the binary event stream, one message per Converse event, named by
 * its `:event-type` header, its JSON the event's member (`contentBlockDelta`, `metadata`, ...).
 */
import { eventMessage } from "./render-bedrock.js";
import { argFragments, chunksOf, stopOf, toolId, usageOf, type RenderContext, type Rendered } from "./render-common.js";
import type { FakeReply } from "./types.js";

const STOP = { stop: "end_turn", length: "max_tokens", toolUse: "tool_use", error: "content_filtered" } as const;

export function renderConverse(reply: FakeReply, ctx: RenderContext): Rendered {
  const usage = usageOf(reply);
  const frames: Buffer[] = [];
  const event = (type: string, body: unknown) => frames.push(converseFrame(type, body));
  event("messageStart", { role: "assistant" });
  let index = 0;
  if (reply.thinking !== undefined) {
    for (const part of chunksOf(reply.thinking)) event("contentBlockDelta", { contentBlockIndex: index, delta: { reasoningContent: { text: part } } });
    event("contentBlockStop", { contentBlockIndex: index++ });
  }
  if (reply.text !== undefined) {
    for (const part of chunksOf(reply.text, reply.textChunks)) event("contentBlockDelta", { contentBlockIndex: index, delta: { text: part } });
    event("contentBlockStop", { contentBlockIndex: index++ });
  }
  (reply.toolCalls ?? []).forEach((call, n) => {
    event("contentBlockStart", { contentBlockIndex: index, start: { toolUse: { toolUseId: toolId("tooluse_", ctx, n, call), name: call.name } } });
    for (const fragment of argFragments(call, reply.splitArgs)) event("contentBlockDelta", { contentBlockIndex: index, delta: { toolUse: { input: fragment } } });
    event("contentBlockStop", { contentBlockIndex: index++ });
  });
  if (reply.streamError !== undefined) {
    event("modelStreamErrorException", { message: reply.streamError });
    return { frames, malformedAfter: 1 };
  }
  event("messageStop", { stopReason: STOP[stopOf(reply)] });
  event("metadata", {
    usage: {
      inputTokens: usage.input,
      outputTokens: usage.output,
      totalTokens: usage.input + usage.output + usage.cacheRead + usage.cacheWrite,
      cacheReadInputTokens: usage.cacheRead,
      cacheWriteInputTokens: usage.cacheWrite,
    },
    metrics: { latencyMs: 1 },
  });
  return { frames, malformedAfter: 1 };
}

export function converseFrame(type: string, body: unknown): Buffer {
  return eventMessage({ ":event-type": type, ":content-type": "application/json", ":message-type": "event" }, Buffer.from(JSON.stringify(body)));
}
