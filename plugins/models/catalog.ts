/**
 * The built-in catalog: current Anthropic, OpenAI and Google models with prices ($ per million
 * tokens), context windows and thinking capabilities. The first model of each provider is its
 * default. models.json can re-point, patch or extend these.
 */
import type { Model, ThinkingLevel } from "../../kernel/index.js";
import type { ProviderRegistration } from "./api.js";

export const ANTHROPIC_API = "anthropic-messages";
export const OPENAI_RESPONSES_API = "openai-responses";
export const OPENAI_COMPLETIONS_API = "openai-completions";
export const GOOGLE_API = "google-generative-ai";

type Spec = {
  id: string;
  name: string;
  cost: [input: number, output: number, cacheRead: number, cacheWrite: number];
  contextWindow: number;
  maxTokens: number;
  reasoning?: boolean;
  textOnly?: boolean;
  thinkingLevels?: ThinkingLevel[];
  compat?: Record<string, unknown>;
};

function build(provider: string, api: string, baseUrl: string, specs: Spec[]): Model[] {
  return specs.map((spec) => ({
    id: spec.id,
    name: spec.name,
    api,
    provider,
    baseUrl,
    reasoning: spec.reasoning ?? true,
    input: spec.textOnly ? ["text"] : ["text", "image"],
    cost: { input: spec.cost[0], output: spec.cost[1], cacheRead: spec.cost[2], cacheWrite: spec.cost[3] },
    contextWindow: spec.contextWindow,
    maxTokens: spec.maxTokens,
    ...(spec.thinkingLevels ? { thinkingLevels: spec.thinkingLevels } : {}),
    ...(spec.compat ? { compat: spec.compat } : {}),
  }));
}

// Adaptive-thinking Claude models take an effort level instead of a token budget.
const ADAPTIVE = { adaptiveThinking: true, supportsStrictTools: true };
const ANTHROPIC: Spec[] = [
  { id: "claude-opus-4-6", name: "Claude Opus 4.6", cost: [5, 25, 0.5, 6.25], contextWindow: 200_000, maxTokens: 128_000, thinkingLevels: ["off", "low", "medium", "high", "max"], compat: ADAPTIVE },
  { id: "claude-sonnet-4-6", name: "Claude Sonnet 4.6", cost: [3, 15, 0.3, 3.75], contextWindow: 200_000, maxTokens: 64_000, thinkingLevels: ["off", "low", "medium", "high"], compat: ADAPTIVE },
  { id: "claude-opus-4-5", name: "Claude Opus 4.5", cost: [5, 25, 0.5, 6.25], contextWindow: 200_000, maxTokens: 64_000 },
  { id: "claude-sonnet-4-5", name: "Claude Sonnet 4.5", cost: [3, 15, 0.3, 3.75], contextWindow: 200_000, maxTokens: 64_000 },
  { id: "claude-haiku-4-5", name: "Claude Haiku 4.5", cost: [1, 5, 0.1, 1.25], contextWindow: 200_000, maxTokens: 64_000 },
  { id: "claude-opus-4-1", name: "Claude Opus 4.1", cost: [15, 75, 1.5, 18.75], contextWindow: 200_000, maxTokens: 32_000 },
  { id: "claude-sonnet-4-20250514", name: "Claude Sonnet 4", cost: [3, 15, 0.3, 3.75], contextWindow: 200_000, maxTokens: 64_000 },
  { id: "claude-3-5-haiku-20241022", name: "Claude Haiku 3.5", cost: [0.8, 4, 0.08, 1], contextWindow: 200_000, maxTokens: 8_192, reasoning: false },
];

// GPT-5.1+ accept effort "none" (thinking off); 5.2+ add "xhigh". Older reasoning models cannot turn it off.
const GPT_XHIGH: ThinkingLevel[] = ["off", "low", "medium", "high", "xhigh"];
const OPENAI: Spec[] = [
  { id: "gpt-5.4", name: "GPT-5.4", cost: [2.5, 15, 0.25, 0], contextWindow: 400_000, maxTokens: 128_000, thinkingLevels: GPT_XHIGH, compat: { supportsReasoningNone: true } },
  { id: "gpt-5.2", name: "GPT-5.2", cost: [1.75, 14, 0.175, 0], contextWindow: 400_000, maxTokens: 128_000, thinkingLevels: GPT_XHIGH, compat: { supportsReasoningNone: true } },
  { id: "gpt-5.1", name: "GPT-5.1", cost: [1.25, 10, 0.125, 0], contextWindow: 400_000, maxTokens: 128_000, thinkingLevels: ["off", "low", "medium", "high"], compat: { supportsReasoningNone: true } },
  { id: "gpt-5", name: "GPT-5", cost: [1.25, 10, 0.125, 0], contextWindow: 400_000, maxTokens: 128_000, thinkingLevels: ["minimal", "low", "medium", "high"] },
  { id: "gpt-5-mini", name: "GPT-5 Mini", cost: [0.25, 2, 0.025, 0], contextWindow: 400_000, maxTokens: 128_000, thinkingLevels: ["minimal", "low", "medium", "high"] },
  { id: "gpt-5-nano", name: "GPT-5 Nano", cost: [0.05, 0.4, 0.005, 0], contextWindow: 400_000, maxTokens: 128_000, thinkingLevels: ["minimal", "low", "medium", "high"] },
  { id: "o3", name: "o3", cost: [2, 8, 0.5, 0], contextWindow: 200_000, maxTokens: 100_000, thinkingLevels: ["low", "medium", "high"] },
  { id: "o4-mini", name: "o4-mini", cost: [1.1, 4.4, 0.275, 0], contextWindow: 200_000, maxTokens: 100_000, thinkingLevels: ["low", "medium", "high"] },
  { id: "gpt-4.1", name: "GPT-4.1", cost: [2, 8, 0.5, 0], contextWindow: 1_047_576, maxTokens: 32_768, reasoning: false },
  { id: "gpt-4.1-mini", name: "GPT-4.1 Mini", cost: [0.4, 1.6, 0.1, 0], contextWindow: 1_047_576, maxTokens: 32_768, reasoning: false },
  { id: "gpt-4o", name: "GPT-4o", cost: [2.5, 10, 1.25, 0], contextWindow: 128_000, maxTokens: 16_384, reasoning: false },
  { id: "gpt-4o-mini", name: "GPT-4o Mini", cost: [0.15, 0.6, 0.075, 0], contextWindow: 128_000, maxTokens: 16_384, reasoning: false },
];

// Gemini 2.5 Pro and Gemini 3 cannot switch thinking off; Gemini 3 takes a level, 2.5 a budget.
const GOOGLE: Spec[] = [
  { id: "gemini-2.5-pro", name: "Gemini 2.5 Pro", cost: [1.25, 10, 0.125, 0], contextWindow: 1_048_576, maxTokens: 65_536, thinkingLevels: ["minimal", "low", "medium", "high"] },
  { id: "gemini-2.5-flash", name: "Gemini 2.5 Flash", cost: [0.3, 2.5, 0.03, 0], contextWindow: 1_048_576, maxTokens: 65_536 },
  { id: "gemini-2.5-flash-lite", name: "Gemini 2.5 Flash-Lite", cost: [0.1, 0.4, 0.01, 0], contextWindow: 1_048_576, maxTokens: 65_536 },
  { id: "gemini-3-pro-preview", name: "Gemini 3 Pro Preview", cost: [2, 12, 0.2, 0], contextWindow: 1_048_576, maxTokens: 65_536, thinkingLevels: ["low", "high"] },
  { id: "gemini-3-flash-preview", name: "Gemini 3 Flash Preview", cost: [0.5, 3, 0.05, 0], contextWindow: 1_048_576, maxTokens: 65_536, thinkingLevels: ["minimal", "low", "medium", "high"] },
  { id: "gemini-2.0-flash", name: "Gemini 2.0 Flash", cost: [0.1, 0.4, 0.025, 0], contextWindow: 1_048_576, maxTokens: 8_192, reasoning: false },
];

export const ENV_KEYS: Readonly<Record<string, string>> = Object.freeze({
  anthropic: "ANTHROPIC_API_KEY",
  openai: "OPENAI_API_KEY",
  google: "GEMINI_API_KEY",
});

export function builtinProviders(): ProviderRegistration[] {
  return [
    { name: "anthropic", api: ANTHROPIC_API, baseUrl: "https://api.anthropic.com", envKey: ENV_KEYS.anthropic, models: build("anthropic", ANTHROPIC_API, "https://api.anthropic.com", ANTHROPIC) },
    { name: "openai", api: OPENAI_RESPONSES_API, baseUrl: "https://api.openai.com/v1", envKey: ENV_KEYS.openai, models: build("openai", OPENAI_RESPONSES_API, "https://api.openai.com/v1", OPENAI) },
    {
      name: "google",
      api: GOOGLE_API,
      baseUrl: "https://generativelanguage.googleapis.com/v1beta",
      envKey: ENV_KEYS.google,
      models: build("google", GOOGLE_API, "https://generativelanguage.googleapis.com/v1beta", GOOGLE),
    },
  ];
}
