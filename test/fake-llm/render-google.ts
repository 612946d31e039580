/** Gemini streaming: `POST /v1beta/models/{model}:streamGenerateContent?alt=sse`, one JSON response per SSE record. */
import { chunksOf, sse, stopOf, usageOf, type RenderContext, type Rendered } from "./render-common.js";
import type { FakeReply } from "./types.js";

const FINISH = { stop: "STOP", length: "MAX_TOKENS", toolUse: "STOP", error: "SAFETY" } as const;
export const GEMINI_THOUGHT_SIGNATURE = "gemini-thought-sig";

export function renderGoogle(reply: FakeReply, ctx: RenderContext): Rendered {
  const usage = usageOf(reply);
  const frames: string[] = [];
  const chunk = (parts: unknown[], extra: Record<string, unknown> = {}, candidate: Record<string, unknown> = {}) =>
    frames.push(
      sse({ candidates: [{ content: { role: "model", parts }, index: 0, ...candidate }], modelVersion: ctx.model, responseId: `gemini_fake_${ctx.seq}`, ...extra }, undefined, "\r\n"),
    );
  if (reply.thinking !== undefined) for (const text of chunksOf(reply.thinking)) chunk([{ text, thought: true }]);
  if (reply.text !== undefined) for (const text of chunksOf(reply.text, reply.textChunks)) chunk([{ text }]);
  // Gemini sends each function call whole; parallel calls share one response.
  const calls = (reply.toolCalls ?? []).map((call, index) => ({
    functionCall: { ...(call.id ? { id: call.id } : {}), name: call.name, args: call.args },
    ...(index === 0 && reply.thinking !== undefined ? { thoughtSignature: GEMINI_THOUGHT_SIGNATURE } : {}),
  }));
  if (calls.length > 0) chunk(calls);
  if (reply.streamError !== undefined) {
    frames.push(sse({ error: { code: 500, message: reply.streamError, status: "INTERNAL" } }, undefined, "\r\n"));
    return { frames, malformedAfter: 1 };
  }
  const thoughts = reply.thinking !== undefined ? Math.min(2, usage.output) : 0;
  chunk([{ text: "" }], {
    usageMetadata: {
      promptTokenCount: usage.input + usage.cacheRead,
      candidatesTokenCount: usage.output - thoughts,
      ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
      ...(usage.cacheRead ? { cachedContentTokenCount: usage.cacheRead } : {}),
      totalTokenCount: usage.input + usage.cacheRead + usage.output,
    },
  }, { finishReason: FINISH[stopOf(reply)] });
  return { frames, malformedAfter: 1 };
}

const STATUS: Record<number, string> = { 400: "INVALID_ARGUMENT", 403: "PERMISSION_DENIED", 404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE" };

export function googleError(status: number, message: string): string {
  return JSON.stringify({ error: { code: status, message, status: STATUS[status] ?? "UNKNOWN" } });
}
