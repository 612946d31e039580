/**
 * What an OpenAI-compatible server accepts, as pi's `compat` keys: detected from the base URL
 * (and provider name) for servers known to differ, then overridden by the model's `compat`
 * from models.json. Unknown servers get the conservative OpenAI subset Atomic always sent.
 */
import type { Model } from "../../lib/llm/index.js";

export type ThinkingFormat = "openai" | "deepseek" | "qwen" | "qwen-chat-template" | "zai" | "openrouter" | "together" | "ant-ling" | "baseten";

export interface CompletionsCompat {
  /** Send `store: false` (OpenAI keeps completions otherwise). */
  supportsStore: boolean;
  /** Reasoning models take their system prompt as `developer`. */
  supportsDeveloperRole: boolean;
  /** Send `reasoning_effort` (thinkingFormat "openai"). */
  supportsReasoningEffort: boolean;
  /** Effort "none" turns thinking off. */
  supportsReasoningNone: boolean;
  /** Ask for a usage chunk with `stream_options.include_usage`. */
  supportsUsageInStreaming: boolean;
  maxTokensField: "max_completion_tokens" | "max_tokens";
  /** Tools carry `strict: false`. */
  supportsStrictMode: boolean;
  /** Tool results carry the tool's `name`. */
  requiresToolResultName: boolean;
  /** A user message may not follow tool results directly: an assistant line bridges them. */
  requiresAssistantAfterToolResult: boolean;
  /** Replayed thinking goes back as plain text. */
  requiresThinkingAsText: boolean;
  /** Assistant turns carry `reasoning_content` (empty when none): DeepSeek's thinking mode with tools needs it. */
  requiresReasoningContentOnAssistantMessages: boolean;
  thinkingFormat: ThinkingFormat;
  /** "anthropic": cache marks on the system prompt, last tool and last message (OpenRouter `anthropic/*`). */
  cacheControlFormat: "anthropic" | undefined;
  /** OpenRouter `provider` routing preferences, sent as is. */
  openRouterRouting: Record<string, unknown> | undefined;
  /** Z.ai: stream tool-call arguments (`tool_stream: true`). */
  zaiToolStream: boolean;
  /** Send the session id as affinity headers (sticky routing on some gateways). */
  sendSessionAffinityHeaders: boolean;
  /** "mistral": tool-call ids of exactly nine letters and digits (Mistral rejects others). */
  toolCallIds: "mistral" | undefined;
  /** Baseten: `chat_template_args`, values `{"$var":"thinking.enabled"}` filled per request. */
  chatTemplateArgs: Record<string, unknown> | undefined;
}

/** The compat a request to `model` uses: detection, then the model's own `compat`. */
export function completionsCompat(model: Model): CompletionsCompat {
  return { ...detect(model), ...overrides(model.compat ?? {}) };
}

function detect(model: Model): CompletionsCompat {
  const url = model.baseUrl.toLowerCase();
  const provider = model.provider.toLowerCase();
  const isOpenAI = url.includes("api.openai.com");
  const isDeepSeek = provider === "deepseek" || url.includes("deepseek.com");
  const isOpenRouter = provider === "openrouter" || url.includes("openrouter.ai");
  const isMistral = provider === "mistral" || url.includes("mistral.ai");
  const isZai = provider === "zai" || url.includes("api.z.ai") || url.includes("bigmodel.cn");
  const isGrok = provider === "xai" || url.includes("api.x.ai");
  const isTogether = provider === "together" || url.includes("api.together.");
  const isMoonshot = provider.startsWith("moonshotai") || url.includes("api.moonshot.");
  const isAntLing = provider === "ant-ling" || url.includes("api.ant-ling.com");
  // These take `max_tokens`; every server is asked for streamed usage (pi 1.6): DeepSeek,
  // OpenRouter and Mistral send it only when asked.
  const classicParams = isDeepSeek || isOpenRouter || isMistral;
  return {
    supportsStore: isOpenAI,
    supportsDeveloperRole: isOpenAI,
    supportsReasoningEffort: !isGrok && !isZai && !isTogether && !isMoonshot,
    supportsReasoningNone: false,
    supportsUsageInStreaming: true,
    maxTokensField: classicParams || isTogether || isMoonshot || isZai ? "max_tokens" : "max_completion_tokens",
    // Together and Moonshot reject the `strict` field on tools.
    supportsStrictMode: !isTogether && !isMoonshot,
    requiresToolResultName: isMistral,
    requiresAssistantAfterToolResult: false,
    requiresThinkingAsText: false,
    requiresReasoningContentOnAssistantMessages: isDeepSeek,
    thinkingFormat: isDeepSeek ? "deepseek" : isZai ? "zai" : isTogether ? "together" : isAntLing ? "ant-ling" : isOpenRouter ? "openrouter" : "openai",
    cacheControlFormat: isOpenRouter && model.id.startsWith("anthropic/") ? "anthropic" : undefined,
    openRouterRouting: undefined,
    zaiToolStream: false,
    sendSessionAffinityHeaders: false,
    toolCallIds: isMistral ? "mistral" : undefined,
    chatTemplateArgs: undefined,
  };
}

const FORMATS: readonly ThinkingFormat[] = ["openai", "deepseek", "qwen", "qwen-chat-template", "zai", "openrouter", "together", "ant-ling", "baseten"];
const BOOLEAN_KEYS = [
  "supportsStore",
  "supportsDeveloperRole",
  "supportsReasoningEffort",
  "supportsReasoningNone",
  "supportsUsageInStreaming",
  "supportsStrictMode",
  "requiresToolResultName",
  "requiresAssistantAfterToolResult",
  "requiresThinkingAsText",
  "requiresReasoningContentOnAssistantMessages",
  "zaiToolStream",
  "sendSessionAffinityHeaders",
] as const;

/** The well-typed keys of a model's `compat`; a value of the wrong type is ignored. */
function overrides(compat: Record<string, unknown>): Partial<CompletionsCompat> {
  const out: Partial<CompletionsCompat> = {};
  for (const key of BOOLEAN_KEYS) if (typeof compat[key] === "boolean") out[key] = compat[key] as boolean;
  if (compat.maxTokensField === "max_tokens" || compat.maxTokensField === "max_completion_tokens") out.maxTokensField = compat.maxTokensField;
  if (FORMATS.includes(compat.thinkingFormat as ThinkingFormat)) out.thinkingFormat = compat.thinkingFormat as ThinkingFormat;
  if (compat.cacheControlFormat === "anthropic") out.cacheControlFormat = "anthropic";
  if (compat.toolCallIds === "mistral") out.toolCallIds = "mistral";
  if (typeof compat.openRouterRouting === "object" && compat.openRouterRouting !== null) out.openRouterRouting = compat.openRouterRouting as Record<string, unknown>;
  if (typeof compat.chatTemplateArgs === "object" && compat.chatTemplateArgs !== null) out.chatTemplateArgs = compat.chatTemplateArgs as Record<string, unknown>;
  return out;
}
