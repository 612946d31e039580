/**
 * The Anthropic model table: prices ($ per million tokens), context windows and thinking
 * capabilities. The first model is the provider's default. models.json can patch or extend it.
 */
import type { ProviderRegistration } from "../../lib/provider-kit/index.js";
import { ANTHROPIC_API, ENV_API_KEYS, modelTable, type ModelRow } from "../../lib/provider-kit/index.js";

const BASE_URL = "https://api.anthropic.com";

// Adaptive-thinking Claude models take an effort level instead of a token budget.
const ADAPTIVE = { adaptiveThinking: true, supportsStrictTools: true };
const ROWS: ModelRow[] = [
  { id: "claude-opus-4-6", name: "Claude Opus 4.6", cost: [5, 25, 0.5, 6.25], contextWindow: 200_000, maxTokens: 128_000, thinkingLevels: ["off", "low", "medium", "high", "max"], compat: ADAPTIVE },
  { id: "claude-sonnet-4-6", name: "Claude Sonnet 4.6", cost: [3, 15, 0.3, 3.75], contextWindow: 200_000, maxTokens: 64_000, thinkingLevels: ["off", "low", "medium", "high"], compat: ADAPTIVE },
  { id: "claude-opus-4-5", name: "Claude Opus 4.5", cost: [5, 25, 0.5, 6.25], contextWindow: 200_000, maxTokens: 64_000 },
  { id: "claude-sonnet-4-5", name: "Claude Sonnet 4.5", cost: [3, 15, 0.3, 3.75], contextWindow: 200_000, maxTokens: 64_000 },
  { id: "claude-haiku-4-5", name: "Claude Haiku 4.5", cost: [1, 5, 0.1, 1.25], contextWindow: 200_000, maxTokens: 64_000 },
  { id: "claude-opus-4-1", name: "Claude Opus 4.1", cost: [15, 75, 1.5, 18.75], contextWindow: 200_000, maxTokens: 32_000 },
  { id: "claude-sonnet-4-20250514", name: "Claude Sonnet 4", cost: [3, 15, 0.3, 3.75], contextWindow: 200_000, maxTokens: 64_000 },
  { id: "claude-3-5-haiku-20241022", name: "Claude Haiku 3.5", cost: [0.8, 4, 0.08, 1], contextWindow: 200_000, maxTokens: 8_192, reasoning: false },
];

export function anthropicProvider(): ProviderRegistration {
  return { name: "anthropic", api: ANTHROPIC_API, baseUrl: BASE_URL, envKey: ENV_API_KEYS.anthropic, models: modelTable("anthropic", ANTHROPIC_API, BASE_URL, ROWS) };
}
