/**
 * The `compat` vocabulary each wire API's adapter reads (pi's keys for OpenAI-compatible
 * servers, Atomic's own for the others), so models.json keys nobody reads are reported instead
 * of silently ignored; and `thinkingLevelMap` (pi): thinking level -> the value the provider
 * takes for it, `null` for a level the model does not offer.
 */
import { THINKING_LEVELS, clampThinkingLevel, thinkingLevelsFor, type Model, type ThinkingLevel } from "../llm/index.js";
import {
  ANTHROPIC_API,
  ANTHROPIC_BEDROCK_API,
  AZURE_OPENAI_RESPONSES_API,
  BEDROCK_CONVERSE_API,
  GOOGLE_API,
  GOOGLE_VERTEX_API,
  MISTRAL_API,
  OPENAI_CODEX_API,
  OPENAI_COMPLETIONS_API,
  OPENAI_RESPONSES_API,
  PI_MESSAGES_API,
} from "./api-names.js";

/**
 * Read by the provider frame for every API: `thinkingLevelMap`; `sessionHeader` (send the session
 * id in this header: OpenCode); `initiatorHeaders` (GitHub Copilot's X-Initiator, Openai-Intent
 * and, with images, Copilot-Vision-Request); `keyHeader` (the key goes as `Bearer` in this header
 * instead of the SDK's own: Cloudflare's AI Gateway).
 */
const EVERY_API = ["thinkingLevelMap", "sessionHeader", "initiatorHeaders", "keyHeader"];
/** models.json `samplingParams` (pi): merged into the request body, on the OpenAI-compatible APIs only. */
const SAMPLING = ["samplingParams", "samplingParamsByThinkingLevel"];

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
    "chatTemplateArgs",
    ...SAMPLING,
  ],
  [OPENAI_RESPONSES_API]: [...EVERY_API, ...SAMPLING, "supportsReasoningNone"],
  [ANTHROPIC_API]: [...EVERY_API, "adaptiveThinking", "supportsEagerToolInputStreaming", "thinkingDisplay", "apiKeyHeader", "anthropicVersion"],
  [GOOGLE_API]: [...EVERY_API],
  [ANTHROPIC_BEDROCK_API]: [...EVERY_API, "adaptiveThinking", "supportsEagerToolInputStreaming", "thinkingDisplay", "anthropicVersion"],
  [AZURE_OPENAI_RESPONSES_API]: [...EVERY_API, ...SAMPLING, "supportsReasoningNone"],
  [GOOGLE_VERTEX_API]: [...EVERY_API],
  [BEDROCK_CONVERSE_API]: [...EVERY_API, "supportsStrictMode"],
  [MISTRAL_API]: [...EVERY_API, ...SAMPLING, "supportsStrictMode"],
  [OPENAI_CODEX_API]: [...EVERY_API, ...SAMPLING, "supportsStrictMode"],
  [PI_MESSAGES_API]: [...EVERY_API],
});

/** pi's keys Atomic accepts and does not apply, with the reason (said when models.json sets one). */
export const PI_COMPAT_NOT_APPLIED: Readonly<Record<string, string>> = Object.freeze({
  supportsStrictTools: "Atomic's tools never ask for strict (constrained) tool sampling, so there is nothing for it to turn on",
  samplingParams: "pi and Atomic apply it only to the OpenAI-compatible APIs",
  samplingParamsByThinkingLevel: "pi and Atomic apply it only to the OpenAI-compatible APIs",
});

/**
 * The models.json `samplingParams` for a request at `level` (pi's order: the model's, then its
 * level's), merged last into an OpenAI-compatible request body; undefined when there are none.
 */
export function samplingParamsFor(model: Model, level: ThinkingLevel): Record<string, unknown> | undefined {
  const compat = model.compat;
  const base = compat?.samplingParams as Record<string, unknown> | undefined;
  const byLevel = compat?.samplingParamsByThinkingLevel as Partial<Record<ThinkingLevel, Record<string, unknown>>> | undefined;
  const forLevel = byLevel?.[clampThinkingLevel(level, thinkingLevelsFor(model))];
  return base || forLevel ? { ...base, ...forLevel } : undefined;
}

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
