/**
 * The OpenAI model table (Responses API): prices ($ per million tokens), context windows and
 * reasoning efforts. The first model is the provider's default. models.json can patch or extend it.
 */
import type { ThinkingLevel } from "../../kernel/index.js";
import type { ProviderRegistration } from "../../lib/provider-kit/index.js";
import { ENV_API_KEYS, OPENAI_RESPONSES_API, modelTable, type ModelRow } from "../../lib/provider-kit/index.js";

const BASE_URL = "https://api.openai.com/v1";

// GPT-5.1+ accept effort "none" (thinking off); 5.2+ add "xhigh". Older reasoning models cannot turn it off.
const GPT_XHIGH: ThinkingLevel[] = ["off", "low", "medium", "high", "xhigh"];
const ROWS: ModelRow[] = [
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

export function openaiProvider(): ProviderRegistration {
  return { name: "openai", api: OPENAI_RESPONSES_API, baseUrl: BASE_URL, envKey: ENV_API_KEYS.openai, models: modelTable("openai", OPENAI_RESPONSES_API, BASE_URL, ROWS) };
}
