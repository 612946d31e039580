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
      sse(
        { candidates: [{ content: { role: "model", parts }, index: 0, ...candidate }], modelVersion: ctx.model, responseId: `gemini_fake_${ctx.seq}`, ...extra },
        undefined,
        "\r\n",
      ),
    );
  if (reply.thinking !== undefined) for (const text of chunksOf(reply.thinking)) chunk([{ text, thought: true }]);
  if (reply.text !== undefined) for (const text of chunksOf(reply.text, reply.textChunks)) chunk([{ text }]);
  // Gemini sends each function call whole; parallel calls share one response.
  const calls = (reply.toolCalls ?? []).map((call, index) => ({
    functionCall: { ...(call.id ? { id: call.id } : {}), name: call.name, args: call.args },
    ...(index === 0 && reply.thinking !== undefined ? { thoughtSignature: GEMINI_THOUGHT_SIGNATURE } : {}),
  }));
  if (calls.length > 0) chunk(calls);
  if (reply.streamErrorBody !== undefined) {
    frames.push(sse(reply.streamErrorBody, undefined, "\r\n"));
    return { frames, malformedAfter: 1 };
  }
  if (reply.streamError !== undefined) {
    frames.push(sse({ error: { code: 500, message: reply.streamError, status: "INTERNAL" } }, undefined, "\r\n"));
    return { frames, malformedAfter: 1 };
  }
  const thoughts = reply.thinking !== undefined ? Math.min(2, usage.output) : 0;
  chunk(
    [{ text: "" }],
    {
      usageMetadata: {
        promptTokenCount: usage.input + usage.cacheRead,
        candidatesTokenCount: usage.output - thoughts,
        ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
        ...(usage.cacheRead ? { cachedContentTokenCount: usage.cacheRead } : {}),
        totalTokenCount: usage.input + usage.cacheRead + usage.output,
      },
    },
    { finishReason: FINISH[stopOf(reply)] },
  );
  return { frames, malformedAfter: 1 };
}

const STATUS: Record<number, string> = { 400: "INVALID_ARGUMENT", 403: "PERMISSION_DENIED", 404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE" };

export function googleError(status: number, message: string): string {
  return JSON.stringify({ error: { code: status, message, status: STATUS[status] ?? "UNKNOWN" } });
}

/**
 * A Gemini 429 as the API sends it for an exhausted quota: billing-sounding wording, a
 * QuotaFailure naming the quota (per minute or per day), and a RetryInfo delay.
 */
export function geminiQuotaErrorBody(quota: "minute" | "day", retrySeconds: number): string {
  const quotaId = quota === "minute" ? "GenerateRequestsPerMinutePerProjectPerModel-FreeTier" : "GenerateRequestsPerDayPerProjectPerModel-FreeTier";
  const metric = "generativelanguage.googleapis.com/generate_content_free_tier_requests";
  return JSON.stringify({
    error: {
      code: 429,
      message: `You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.\n* Quota exceeded for metric: ${metric}, limit: 10, model: gemini-3.5-flash\nPlease retry in ${retrySeconds}.5s.`,
      status: "RESOURCE_EXHAUSTED",
      details: [
        {
          "@type": "type.googleapis.com/google.rpc.QuotaFailure",
          violations: [{ quotaMetric: metric, quotaId, quotaDimensions: { location: "global", model: "gemini-3.5-flash" }, quotaValue: "10" }],
        },
        {
          "@type": "type.googleapis.com/google.rpc.Help",
          links: [{ description: "Learn more about Gemini API quotas", url: "https://ai.google.dev/gemini-api/docs/rate-limits" }],
        },
        { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${retrySeconds}s` },
      ],
    },
  });
}
