/**
 * The Chat Completions request body (`openai-completions`: OpenAI and every OpenAI-compatible
 * server), shaped by the server's compat: which token-limit field, usage streaming, `store`,
 * strict tools, the thinking format (reasoning_effort, DeepSeek's and Z.ai's `thinking`, Qwen's
 * `enable_thinking`, OpenRouter's and Together's `reasoning`), tool-call ids and Anthropic-style
 * cache marks.
 */
import type { Model, StreamRequest, ThinkingLevel } from "../../lib/llm/index.js";
import { clampThinkingLevel, thinkingLevelsFor } from "../../lib/llm/index.js";
import { mappedLevelValue, samplingParamsFor, thinkingLevelMapOf } from "../../lib/provider-kit/compat.js";
import { defaultMaxTokens, prepareHistory } from "../../lib/provider-kit/history.js";
import { completionsCompat, type CompletionsCompat } from "./completions-compat.js";
import { convertMessages, type ChatMessage } from "./completions-messages.js";
import { mistralToolCallId, normalizeChatToolCallId, reasoningEffort } from "./shared.js";

export { REASONING_FIELDS } from "./completions-messages.js";

const CACHE = { type: "ephemeral" } as const;

export function buildChatRequest(request: StreamRequest, compat: CompletionsCompat = completionsCompat(request.model)): Record<string, unknown> {
  const { model, context, options } = request;
  const messages: ChatMessage[] = [];
  if (context.systemPrompt) messages.push({ role: model.reasoning && compat.supportsDeveloperRole ? "developer" : "system", content: context.systemPrompt });
  const normalizeToolCallId = compat.toolCallIds === "mistral" ? mistralToolCallId : normalizeChatToolCallId;
  messages.push(...convertMessages(prepareHistory(context.messages, model, { normalizeToolCallId }), model, compat));
  const params: Record<string, unknown> = { model: model.id, messages, stream: true };
  if (compat.supportsUsageInStreaming) params.stream_options = { include_usage: true };
  if (compat.supportsStore) params.store = false;
  params[compat.maxTokensField] = defaultMaxTokens(model, options.maxTokens);
  if (context.tools.length > 0) {
    const strict = compat.supportsStrictMode ? { strict: false } : {};
    params.tools = context.tools.map((tool) => ({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.parameters, ...strict } }));
    if (compat.zaiToolStream) params.tool_stream = true;
  }
  if (model.reasoning) Object.assign(params, thinkingParams(model, options.thinkingLevel, compat));
  if (compat.openRouterRouting) params.provider = compat.openRouterRouting;
  if (compat.cacheControlFormat === "anthropic") markCache(messages, params.tools as Record<string, unknown>[] | undefined);
  // Last, so models.json sampling parameters override the named fields (pi).
  Object.assign(params, samplingParamsFor(model, options.thinkingLevel));
  return params;
}

/** The thinking level in the server's own format. */
function thinkingParams(model: Model, requested: ThinkingLevel, compat: CompletionsCompat): Record<string, unknown> {
  const level = clampThinkingLevel(requested, thinkingLevelsFor(model));
  const on = level !== "off";
  const effort = reasoningEffort(model, level, compat.supportsReasoningNone);
  switch (compat.thinkingFormat) {
    case "deepseek":
      return { thinking: { type: on ? "enabled" : "disabled" }, ...(on && effort && compat.supportsReasoningEffort ? { reasoning_effort: effort } : {}) };
    case "qwen":
      return { enable_thinking: on, ...(on && effort && compat.supportsReasoningEffort ? { reasoning_effort: effort } : {}) };
    case "zai":
      // Z.ai keeps earlier turns' thinking unless told otherwise; Atomic replays what it wants kept.
      return on
        ? { thinking: { type: "enabled", clear_thinking: false }, ...(effort && compat.supportsReasoningEffort ? { reasoning_effort: effort } : {}) }
        : { thinking: { type: "disabled" } };
    case "together":
      return { reasoning: { enabled: on }, ...(on && effort && compat.supportsReasoningEffort ? { reasoning_effort: effort } : {}) };
    case "qwen-chat-template":
      return { chat_template_kwargs: { enable_thinking: on, preserve_thinking: true } };
    case "ant-ling": {
      // Ant Ling takes only the levels its map names; an unnamed level sends nothing.
      const value = on ? mappedLevelValue(model, level) : undefined;
      return value ? { reasoning: { effort: value } } : {};
    }
    case "baseten": {
      const args = templateArgs(compat.chatTemplateArgs, on, effort);
      const baseEffort = on ? effort : mappedLevelValue(model, "off");
      return { ...(args ? { chat_template_args: args } : {}), ...(baseEffort && compat.supportsReasoningEffort ? { reasoning_effort: baseEffort } : {}) };
    }
    case "openrouter": {
      if (on) return effort ? { reasoning: { effort } } : {};
      const off = thinkingLevelMapOf(model)?.off;
      return off === null ? {} : { reasoning: { effort: off ?? "none" } };
    }
    default:
      return effort && compat.supportsReasoningEffort ? { reasoning_effort: effort } : {};
  }
}

/** Baseten's `chat_template_args`: each `{"$var": "thinking.enabled" | "thinking.effort"}` filled for this request. */
function templateArgs(template: Record<string, unknown> | undefined, on: boolean, effort: string | undefined): Record<string, unknown> | undefined {
  if (!template) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(template)) {
    const variable = (value as { $var?: unknown } | null)?.$var;
    if (variable === "thinking.enabled") out[key] = on;
    else if (variable === "thinking.effort") {
      if (on && effort) out[key] = effort;
    } else if (variable === undefined) out[key] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Anthropic models behind OpenRouter cache only what is marked: the system prompt, the last tool, the last message. */
function markCache(messages: ChatMessage[], tools: Record<string, unknown>[] | undefined): void {
  const system = messages.find((m) => m.role === "system" || m.role === "developer");
  if (system) markText(system);
  if (tools && tools.length > 0) tools[tools.length - 1]!.cache_control = CACHE;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if ((message.role === "user" || message.role === "assistant") && markText(message)) return;
  }
}

function markText(message: ChatMessage): boolean {
  const content = message.content;
  if (typeof content === "string" && content !== "") {
    message.content = [{ type: "text", text: content, cache_control: CACHE }];
    return true;
  }
  if (!Array.isArray(content)) return false;
  const last = [...(content as Record<string, unknown>[])].reverse().find((part) => part.type === "text");
  if (last) last.cache_control = CACHE;
  return Boolean(last);
}
