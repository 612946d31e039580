/**
 * The `compat` vocabulary each wire API's adapter reads (pi's keys for OpenAI-compatible
 * servers, Atomic's own for the others), so models.json keys nobody reads are reported instead
 * of silently ignored; and `thinkingLevelMap` (pi): thinking level -> the value the provider
 * takes for it, `null` for a level the model does not offer.
 */
import { THINKING_LEVELS, type Model, type ThinkingLevel } from "../llm/index.js";
import { ANTHROPIC_API, ANTHROPIC_BEDROCK_API, AZURE_OPENAI_RESPONSES_API, GOOGLE_API, GOOGLE_VERTEX_API, OPENAI_COMPLETIONS_API, OPENAI_RESPONSES_API } from "./api-names.js";

const EVERY_API = ["thinkingLevelMap"];

export const COMPAT_KEYS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  [OPENAI_COMPLETIONS_API]: [
    ...EVERY_API,
    "supportsStore",
    "supportsDeveloperRole",
    "supportsReasoningEffort",
    "supportsReasoningNone",
    "supportsUsageInStreaming",
    "maxTokensField",
    "supportsStrictMode",
    "requiresToolResultName",
    "requiresAssistantAfterToolResult",
    "requiresThinkingAsText",
    "requiresReasoningContentOnAssistantMessages",
    "thinkingFormat",
    "cacheControlFormat",
    "openRouterRouting",
    "zaiToolStream",
    "sendSessionAffinityHeaders",
    "toolCallIds",
  ],
  [OPENAI_RESPONSES_API]: [...EVERY_API, "supportsReasoningNone"],
  [ANTHROPIC_API]: [...EVERY_API, "adaptiveThinking", "supportsStrictTools", "supportsEagerToolInputStreaming", "thinkingDisplay", "apiKeyHeader", "anthropicVersion"],
  [GOOGLE_API]: [...EVERY_API],
  [ANTHROPIC_BEDROCK_API]: [...EVERY_API, "adaptiveThinking", "supportsEagerToolInputStreaming", "thinkingDisplay", "anthropicVersion"],
  [AZURE_OPENAI_RESPONSES_API]: [...EVERY_API, "supportsReasoningNone"],
  [GOOGLE_VERTEX_API]: [...EVERY_API],
});

/** Keys of `compat` the adapter of `api` does not read (none for an API this table does not know). */
export function unknownCompatKeys(api: string, compat: Record<string, unknown> | undefined): string[] {
  const known = COMPAT_KEYS[api];
  if (!known || !compat) return [];
  return Object.keys(compat).filter((key) => !known.includes(key));
}

export type ThinkingLevelMap = Partial<Record<ThinkingLevel, string | null>>;

export function thinkingLevelMapOf(model: Model): ThinkingLevelMap | undefined {
  const map = model.compat?.thinkingLevelMap;
  return typeof map === "object" && map !== null ? (map as ThinkingLevelMap) : undefined;
}

/** The provider value a map gives `level`, if it names one. */
export function mappedLevelValue(model: Model, level: ThinkingLevel): string | undefined {
  const value = thinkingLevelMapOf(model)?.[level];
  return typeof value === "string" ? value : undefined;
}

/**
 * The levels a map offers: every level not mapped to null, with `xhigh` and `max` only where
 * the map names a value for them (no provider has them by default).
 */
export function levelsOfMap(map: ThinkingLevelMap): ThinkingLevel[] {
  return THINKING_LEVELS.filter((level) => {
    const value = map[level];
    if (value === null) return false;
    return level === "xhigh" || level === "max" ? typeof value === "string" : true;
  });
}
