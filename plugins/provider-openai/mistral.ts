/**
 * Mistral's own chat endpoint (`mistral-conversations`, pi's name for it): the provider's base URL
 * is the host root (`https://api.mistral.ai`, as in pi's models.json) and requests go to
 * `<baseUrl>/v1/chat/completions`. The body is the Chat Completions one with Mistral's rules
 * (nine-character tool-call ids, named tool results, `max_tokens`, `strict` on every tool), its
 * thinking control (`reasoning_effort` with the model's values, or `prompt_mode: "reasoning"` for
 * a reasoning model without levels), and the session id as its prompt-cache key and `x-affinity`.
 * Mistral streams thinking as content chunks (completions-stream.ts reads them) and sends usage
 * without being asked.
 */
import type { Model, StreamRequest, ThinkingLevel } from "../../lib/llm/index.js";
import { clampThinkingLevel, thinkingLevelsFor } from "../../lib/llm/index.js";
import { mappedLevelValue, samplingParamsFor, thinkingLevelMapOf } from "../../lib/provider-kit/compat.js";
import type { ProviderCall, ProviderYield } from "../../lib/provider-kit/provider-stream.js";
import { completionsCompat } from "./completions-compat.js";
import { buildChatRequest } from "./completions-request.js";
import { streamChat } from "./completions-stream.js";

export async function* streamMistral(call: ProviderCall): AsyncGenerator<ProviderYield, void, undefined> {
  const sessionId = call.request.options.sessionId;
  yield* streamChat({ ...call, baseUrl: mistralV1(call.baseUrl) }, buildMistralRequest(call.request), sessionId ? { "x-affinity": sessionId } : undefined);
}

/** `<baseUrl>/v1`: the base URL names the host (a query string, a proxy's path prefix are kept). */
export function mistralV1(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/v1`;
  return url.toString();
}

export function buildMistralRequest(request: StreamRequest): Record<string, unknown> {
  const { model, options } = request;
  const compat = {
    ...completionsCompat(model),
    supportsStore: false,
    supportsDeveloperRole: false,
    supportsReasoningEffort: false,
    supportsUsageInStreaming: false,
    maxTokensField: "max_tokens" as const,
    // pi sends `strict: false` on Mistral's tools unless the model takes strict tools.
    supportsStrictMode: true,
    requiresToolResultName: true,
    toolCallIds: "mistral" as const,
  };
  const params = buildChatRequest(request, compat);
  for (const field of ["reasoning_effort", "reasoning", "thinking"]) delete params[field];
  Object.assign(params, mistralThinking(model, options.thinkingLevel));
  if (options.sessionId) params.prompt_cache_key = options.sessionId;
  Object.assign(params, samplingParamsFor(model, options.thinkingLevel));
  return params;
}

function mistralThinking(model: Model, requested: ThinkingLevel): Record<string, unknown> {
  if (!model.reasoning) return {};
  const level = clampThinkingLevel(requested, thinkingLevelsFor(model));
  const levelled = model.thinkingLevels !== undefined || thinkingLevelMapOf(model) !== undefined;
  if (!levelled) return level === "off" ? {} : { prompt_mode: "reasoning" };
  const value = mappedLevelValue(model, level);
  if (level === "off") return value ? { reasoning_effort: value } : {};
  return { reasoning_effort: value ?? level };
}
